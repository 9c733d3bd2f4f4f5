package io.eeoutbox.relay.backoff;

import io.eeoutbox.relay.config.RelaySettings;

import io.eeoutbox.relay.config.RelayConfig;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.spi.BackoffPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The relay's default backoff, as built from the configuration. */
class BackoffTest {

    private static BackoffPolicy fromConfig(RelayConfig c, double random) {
        return BackoffPolicy.exponential(c.backoffInitial(), c.backoffFactor(), c.backoffMax(), c.backoffJitter(), () -> random);
    }

    @Test
    void doublesFromTheInitialDelayUpToTheCap() {
        RelayConfig c = RelayConfig.builder().set(RelaySettings.BACKOFF_JITTER, 0.0).build();
        BackoffPolicy b = fromConfig(c, 0.5);
        assertThat(b.delay(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(b.delay(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(b.delay(5)).isEqualTo(Duration.ofSeconds(16));
        assertThat(b.delay(9)).isEqualTo(Duration.ofMinutes(4).plusSeconds(16));
        assertThat(b.delay(10)).isEqualTo(Duration.ofMinutes(5));
        assertThat(b.delay(1000)).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void jitterSpreadsWithinItsFractionAndNeverPastTheCap() {
        RelayConfig c = RelayConfig.defaults(); // jitter 0.2
        assertThat(fromConfig(c, 0.0).delay(3)).isEqualTo(Duration.ofMillis(3200));
        assertThat(fromConfig(c, 0.5).delay(3)).isEqualTo(Duration.ofSeconds(4));
        assertThat(fromConfig(c, 0.999999).delay(3).toMillis()).isBetween(4799L, 4800L);
        assertThat(fromConfig(c, 0.999999).delay(20)).isEqualTo(Duration.ofMinutes(5));
        assertThat(fromConfig(c, 0.0).delay(20)).isEqualTo(Duration.ofMinutes(4));
    }
}
