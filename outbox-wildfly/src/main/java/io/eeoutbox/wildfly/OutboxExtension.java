package io.eeoutbox.wildfly;

import org.wildfly.subsystem.SubsystemConfiguration;
import org.wildfly.subsystem.SubsystemExtension;
import org.wildfly.subsystem.SubsystemPersistence;

/**
 * The WildFly extension {@code io.eeoutbox.wildfly}: subsystem {@code ee-outbox}, whose runtime children
 * {@code relay=<outbox.relay.name>} are the relays running in this server (docs/design/issue-32-server-admin-tools.md,
 * section 1). Found through {@code META-INF/services/org.jboss.as.controller.Extension}.
 */
public final class OutboxExtension extends SubsystemExtension<OutboxSubsystemSchema> {

    public OutboxExtension() {
        super(SubsystemConfiguration.of(OutboxSubsystemRegistrar.REGISTRATION, OutboxSubsystemModel.CURRENT,
                OutboxSubsystemRegistrar::new), SubsystemPersistence.of(OutboxSubsystemSchema.CURRENT));
    }
}
