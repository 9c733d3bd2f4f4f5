package io.eeoutbox.wildfly;

import org.jboss.as.controller.SubsystemSchema;
import org.jboss.as.controller.persistence.xml.ResourceXMLParticleFactory;
import org.jboss.as.controller.persistence.xml.SubsystemResourceRegistrationXMLElement;
import org.jboss.as.controller.persistence.xml.SubsystemResourceXMLSchema;
import org.jboss.as.controller.xml.VersionedNamespace;
import org.jboss.staxmapper.IntVersion;

/**
 * The subsystem's XML: {@code <subsystem xmlns="urn:jboss:domain:ee-outbox:1.0"/>}, empty, since the relays are runtime
 * resources and nothing of them is configured in the server's XML.
 */
enum OutboxSubsystemSchema implements SubsystemResourceXMLSchema<OutboxSubsystemSchema> {
    VERSION_1_0(1, 0);

    static final OutboxSubsystemSchema CURRENT = VERSION_1_0;

    private final ResourceXMLParticleFactory factory = ResourceXMLParticleFactory.newInstance(this);
    private final VersionedNamespace<IntVersion, OutboxSubsystemSchema> namespace;

    OutboxSubsystemSchema(int major, int minor) {
        this.namespace = SubsystemSchema.createLegacySubsystemURN(OutboxSubsystemRegistrar.REGISTRATION.getName(),
                new IntVersion(major, minor));
    }

    @Override
    public VersionedNamespace<IntVersion, OutboxSubsystemSchema> getNamespace() {
        return namespace;
    }

    @Override
    public SubsystemResourceRegistrationXMLElement getSubsystemXMLElement() {
        return factory.subsystemElement(OutboxSubsystemRegistrar.REGISTRATION).build();
    }
}
