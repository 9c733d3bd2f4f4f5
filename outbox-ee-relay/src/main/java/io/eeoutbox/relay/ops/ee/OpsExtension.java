package io.eeoutbox.relay.ops.ee;

import io.eeoutbox.relay.ee.EeConfigLookup;
import io.eeoutbox.relay.ops.OpsConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Adds the relay's MicroProfile Health checks as beans, only where the application can see the
 * MicroProfile Health API (Open Liberty's {@code mpHealth}, WildFly's {@code microprofile-health-smallrye}
 * subsystem). The check classes carry no bean-defining annotation, so bean discovery never loads them;
 * here they are loaded by name after the API was found, and never on a server without it.
 * {@value OpsConfig#HEALTH_ENABLED}=false leaves them out.
 */
public class OpsExtension implements Extension {

    private static final Logger LOG = Logger.getLogger(OpsExtension.class.getName());
    static final String HEALTH_API = "org.eclipse.microprofile.health.HealthCheck";
    static final String[] CHECKS = {
        "io.eeoutbox.relay.ops.mphealth.RelayReadinessCheck",
        "io.eeoutbox.relay.ops.mphealth.RelayLivenessCheck",
    };

    void addHealthChecks(@Observes BeforeBeanDiscovery discovery) {
        ClassLoader loader = OpsExtension.class.getClassLoader();
        if (!MetricsExports.present(HEALTH_API, loader)) {
            LOG.fine("MicroProfile Health is not available: the relay's health checks are not added");
            return;
        }
        try {
            if (!OpsConfig.load(EeConfigLookup.forApplication(loader)).healthEnabled()) {
                LOG.info(OpsConfig.HEALTH_ENABLED + "=false: the relay's health checks are not added");
                return;
            }
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "configuration not readable while beans are discovered; adding the health checks", e);
        }
        for (String name : CHECKS) {
            try {
                add(discovery, Class.forName(name, false, loader));
            } catch (ClassNotFoundException | LinkageError e) {
                LOG.log(Level.WARNING, "the relay's health check " + name + " could not be added", e);
            }
        }
    }

    private static <T> void add(BeforeBeanDiscovery discovery, Class<T> type) {
        discovery.addAnnotatedType(type, OpsExtension.class.getName() + "." + type.getSimpleName())
                .add(ApplicationScoped.Literal.INSTANCE);
    }
}
