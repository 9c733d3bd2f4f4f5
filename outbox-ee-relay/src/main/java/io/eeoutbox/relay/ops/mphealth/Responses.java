package io.eeoutbox.relay.ops.mphealth;

import io.eeoutbox.relay.ops.RelayHealth;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/** A {@link RelayHealth.Report} as a MicroProfile Health response. */
final class Responses {

    private Responses() {
    }

    static HealthCheckResponse of(String name, RelayHealth.Report report) {
        HealthCheckResponseBuilder b = HealthCheckResponse.named(name).status(report.up());
        for (Map.Entry<String, Object> e : report.data().entrySet()) {
            Object v = e.getValue();
            if (v instanceof Boolean bool) {
                b.withData(e.getKey(), bool);
            } else if (v instanceof Number n) {
                b.withData(e.getKey(), n.longValue());
            } else if (v != null) {
                b.withData(e.getKey(), v.toString());
            }
        }
        return b.build();
    }
}
