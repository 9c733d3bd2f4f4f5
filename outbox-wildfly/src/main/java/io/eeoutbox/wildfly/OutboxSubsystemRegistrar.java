package io.eeoutbox.wildfly;

import java.util.Map;
import org.jboss.as.controller.ResourceDefinition;
import org.jboss.as.controller.SubsystemRegistration;
import org.jboss.as.controller.SubsystemResourceRegistration;
import org.jboss.as.controller.descriptions.ParentResourceDescriptionResolver;
import org.jboss.as.controller.descriptions.SubsystemResourceDescriptionResolver;
import org.jboss.as.controller.registry.ManagementResourceRegistration;
import org.wildfly.subsystem.resource.DynamicResource;
import org.wildfly.subsystem.resource.ManagementResourceRegistrar;
import org.wildfly.subsystem.resource.ManagementResourceRegistrationContext;
import org.wildfly.subsystem.resource.ResourceDescriptor;
import org.wildfly.subsystem.resource.SubsystemResourceDefinitionRegistrar;

/**
 * {@code /subsystem=ee-outbox}: no attributes of its own and no service; its resource is a {@link DynamicResource}
 * whose {@code relay} children are computed on each read from the relays' MBeans ({@link RelayMBeanChildren}), so
 * relays come and go with their applications, whatever the order of the extension's and the deployments' starts.
 */
final class OutboxSubsystemRegistrar implements SubsystemResourceDefinitionRegistrar {

    static final SubsystemResourceRegistration REGISTRATION = SubsystemResourceRegistration.of("ee-outbox");
    /** Descriptions from {@code LocalDescriptions.properties} of this package, keys {@code ee-outbox...}. */
    static final ParentResourceDescriptionResolver RESOLVER =
            new SubsystemResourceDescriptionResolver(REGISTRATION.getName(), OutboxSubsystemRegistrar.class);

    @Override
    public ManagementResourceRegistration register(SubsystemRegistration parent, ManagementResourceRegistrationContext context) {
        ManagementResourceRegistration registration =
                parent.registerSubsystemModel(ResourceDefinition.builder(REGISTRATION, RESOLVER).build());
        RelayMBeanChildren relays = new RelayMBeanChildren(RelayMBeanChildren.platform());
        ResourceDescriptor descriptor = ResourceDescriptor.builder(RESOLVER)
                .withResourceTransformation(resource -> new DynamicResource(resource,
                        Map.of(RelayResourceRegistrar.PATH.getKey(), relays)))
                .build();
        ManagementResourceRegistrar.of(descriptor).register(registration);
        if (context.isRuntimeOnlyRegistrationValid()) {
            new RelayResourceRegistrar(relays).register(registration);
        }
        return registration;
    }
}
