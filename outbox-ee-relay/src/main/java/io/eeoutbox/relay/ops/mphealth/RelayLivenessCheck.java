package io.eeoutbox.relay.ops.mphealth;

import io.eeoutbox.relay.ops.ee.OpsBootstrap;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * MicroProfile Health liveness check {@value #NAME}: DOWN when the relay's loop has not run for
 * {@code outbox.relay.health.liveness-poll-multiple} poll intervals (at least
 * {@code outbox.relay.health.liveness-min}); UP while paused.
 *
 * <p>No bean-defining annotation on purpose: {@code OpsExtension} adds this class as an
 * {@code @ApplicationScoped} bean only where MicroProfile Health is available.
 */
@Liveness
public class RelayLivenessCheck implements HealthCheck {

    public static final String NAME = "outbox-relay";

    @Inject
    OpsBootstrap ops;

    @Override
    public HealthCheckResponse call() {
        return Responses.of(NAME, ops.liveness());
    }
}
