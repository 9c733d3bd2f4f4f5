package io.eeoutbox.relay.ops.mphealth;

import io.eeoutbox.relay.ops.ee.OpsBootstrap;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * MicroProfile Health readiness check {@value #NAME}: DOWN when the relay has not reached the database
 * or the broker for longer than {@code outbox.relay.health.unreachable-threshold}.
 *
 * <p>No bean-defining annotation on purpose: {@code OpsExtension} adds this class as an
 * {@code @ApplicationScoped} bean only where MicroProfile Health is available.
 */
@Readiness
public class RelayReadinessCheck implements HealthCheck {

    public static final String NAME = "outbox-relay";

    @Inject
    OpsBootstrap ops;

    @Override
    public HealthCheckResponse call() {
        return Responses.of(NAME, ops.readiness());
    }
}
