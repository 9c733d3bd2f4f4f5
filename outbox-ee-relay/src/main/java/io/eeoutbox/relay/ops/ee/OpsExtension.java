package io.eeoutbox.relay.ops.ee;

import io.eeoutbox.relay.ee.EeConfigLookup;
import io.eeoutbox.relay.ops.OpsConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import java.lang.annotation.Annotation;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Adds the beans that need a MicroProfile API, only where the application can see that API: the
 * holder of the MicroProfile Metrics registry (Open Liberty's producer needs a real injection point), and
 * the relay's MicroProfile Health checks, where the application can see the MicroProfile Health API (Open Liberty's {@code mpHealth}, WildFly's {@code microprofile-health-smallrye}
 * subsystem). These classes carry no bean-defining annotation, so bean discovery never loads them;
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

    static final String METRICS_REGISTRY_HOLDER = "io.eeoutbox.relay.ops.mpmetrics.MpMetricsRegistry";

    void addMetricsRegistryHolder(@Observes BeforeBeanDiscovery discovery) {
        ClassLoader loader = OpsExtension.class.getClassLoader();
        if (MetricsExports.present(MetricsExports.MP_METRICS, loader)) {
            try {
                add(discovery, Class.forName(METRICS_REGISTRY_HOLDER, false, loader), Dependent.Literal.INSTANCE);
            } catch (ClassNotFoundException | LinkageError e) {
                LOG.log(Level.WARNING, "the relay's metrics registry holder could not be added", e);
            }
        }
    }

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
                add(discovery, Class.forName(name, false, loader), ApplicationScoped.Literal.INSTANCE);
            } catch (ClassNotFoundException | LinkageError e) {
                LOG.log(Level.WARNING, "the relay's health check " + name + " could not be added", e);
            }
        }
    }

    private static <T> void add(BeforeBeanDiscovery discovery, Class<T> type, Annotation scope) {
        discovery.addAnnotatedType(type, OpsExtension.class.getName() + "." + type.getSimpleName()).add(scope);
    }
}
