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
                OpsConfig.METRICS_ENABLED.key(), "false",
                OpsConfig.METRICS_REFRESH_INTERVAL.key(), "PT2S",
                OpsConfig.HEALTH_ENABLED.key(), "FALSE",
                OpsConfig.HEALTH_UNREACHABLE_THRESHOLD.key(), "PT1M",
                OpsConfig.HEALTH_LIVENESS_POLL_MULTIPLE.key(), "5",
                OpsConfig.HEALTH_LIVENESS_MIN.key(), "PT0S",
                OpsConfig.JMX_ENABLED.key(), " false ")));
        assertThat(c).isEqualTo(OpsConfig.of(Map.of("outbox.relay.metrics.enabled", "false",
                "outbox.relay.metrics.refresh-interval", "PT2S", "outbox.relay.health.enabled", "false",
                "outbox.relay.health.unreachable-threshold", "PT1M", "outbox.relay.health.liveness-poll-multiple", "5",
                "outbox.relay.health.liveness-min", "PT0S", "outbox.relay.jmx.enabled", "false")));
        assertThat(c.livenessThreshold(Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void anInvalidValueNamesTheKeyAndWhatIsAllowed() {
        assertThatThrownBy(() -> OpsConfig.load(ConfigLookups.of(Map.of(OpsConfig.METRICS_REFRESH_INTERVAL.key(), "15s"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid configuration: outbox.relay.metrics.refresh-interval=15s (allowed: an ISO-8601"
                        + " duration from PT0.1S to PT1H)");
        assertThatThrownBy(() -> OpsConfig.load(ConfigLookups.of(Map.of(OpsConfig.METRICS_REFRESH_INTERVAL.key(), "PT0S"))))
                .hasMessageContaining("from PT0.1S to PT1H");
        assertThatThrownBy(() -> OpsConfig.load(ConfigLookups.of(Map.of(OpsConfig.JMX_ENABLED.key(), "yes"))))
                .hasMessageContaining("outbox.relay.jmx.enabled=yes").hasMessageContaining("true or false");
        assertThatThrownBy(() -> OpsConfig.load(ConfigLookups.of(Map.of(OpsConfig.HEALTH_LIVENESS_POLL_MULTIPLE.key(), "0"))))
                .hasMessageContaining("from 1 to 1000");
    }
}
