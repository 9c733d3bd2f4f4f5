package io.eeoutbox.wildfly;

import org.jboss.as.controller.ModelVersion;
import org.jboss.as.controller.SubsystemModel;

/** The versions of the subsystem's management model. */
enum OutboxSubsystemModel implements SubsystemModel {
    VERSION_1_0_0(1, 0, 0);

    static final OutboxSubsystemModel CURRENT = VERSION_1_0_0;

    private final ModelVersion version;

    OutboxSubsystemModel(int major, int minor, int micro) {
        this.version = ModelVersion.create(major, minor, micro);
    }

    @Override
    public ModelVersion getVersion() {
        return version;
    }
}
