package io.eeoutbox.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class UuidsTest {

    @Test
    void isVersion7AndOrderedByTime() {
        UUID earlier = Uuids.v7(1_700_000_000_000L);
        UUID later = Uuids.v7(1_700_000_000_001L);
        assertThat(earlier.version()).isEqualTo(7);
        assertThat(earlier.variant()).isEqualTo(2);
        assertThat(earlier.toString().compareTo(later.toString())).isNegative();
        assertThat(earlier.getMostSignificantBits() >>> 16).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void isUniqueWithinOneMillisecond() {
        assertThat(Uuids.v7(5L)).isNotEqualTo(Uuids.v7(5L));
    }
}
