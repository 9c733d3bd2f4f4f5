package io.eeoutbox.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.relay.config.ConfigLookups;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OpsConfigTest {

    @Test
    void defaults() {
        OpsConfig c = OpsConfig.load(ConfigLookups.of(Map.of()));
        assertThat(c).isEqualTo(OpsConfig.defaults());
        assertThat(c.refreshInterval()).isEqualTo(Duration.ofSeconds(15));
        assertThat(c.unreachableThreshold()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.livenessThreshold(Duration.ofSeconds(5))).isEqualTo(Duration.ofSeconds(15));
        assertThat(c.livenessThreshold(Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(10)); // the floor
        assertThat(c.metricsEnabled()).isTrue();
        assertThat(c.healthEnabled()).isTrue();
        assertThat(c.jmxEnabled()).isTrue();
    }

    @Test
    void readsEveryKey() {
        OpsConfig c = OpsConfig.load(ConfigLookups.of(Map.of(
                OpsConfig.METRICS_ENABLED, "false",
                OpsConfig.METRICS_REFRESH_INTERVAL, "PT2S",
                OpsConfig.HEALTH_ENABLED, "FALSE",
                OpsConfig.HEALTH_UNREACHABLE_THRESHOLD, "PT1M",
                OpsConfig.HEALTH_LIVENESS_POLL_MULTIPLE, "5",
                OpsConfig.HEALTH_LIVENESS_MIN, "PT0S",
                OpsConfig.JMX_ENABLED, " false ")));
        assertThat(c).isEqualTo(new OpsConfig(false, Duration.ofSeconds(2), false, Duration.ofMinutes(1), 5,
                Duration.ZERO, false));
        assertThat(c.livenessThreshold(Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void anInvalidValueNamesTheKeyAndWhatIsAllowed() {
        assertThatThrownBy(() -> OpsConfig.load(ConfigLookups.of(Map.of(OpsConfig.METRICS_REFRESH_INTERVAL, "15s"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid configuration: outbox.relay.metrics.refresh-interval=15s is not allowed: it must be"
                        + " an ISO-8601 duration such as PT15S or PT1M");
        assertThatThrownBy(() -> OpsConfig.load(ConfigLookups.of(Map.of(OpsConfig.METRICS_REFRESH_INTERVAL, "PT0S"))))
                .hasMessageContaining("from PT0.1S to PT1H");
        assertThatThrownBy(() -> OpsConfig.load(ConfigLookups.of(Map.of(OpsConfig.JMX_ENABLED, "yes"))))
                .hasMessageContaining("outbox.relay.jmx.enabled=yes").hasMessageContaining("true or false");
        assertThatThrownBy(() -> OpsConfig.load(ConfigLookups.of(Map.of(OpsConfig.HEALTH_LIVENESS_POLL_MULTIPLE, "0"))))
                .hasMessageContaining("from 1 to 1000");
    }
}
