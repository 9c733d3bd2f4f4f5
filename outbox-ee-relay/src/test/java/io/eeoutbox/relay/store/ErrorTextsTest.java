package io.eeoutbox.relay.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ErrorTextsTest {

    @Test
    void describesTheCauseChainOnOneLine() {
        Exception e = new IllegalStateException("send failed\nbroker said no",
                new java.io.IOException("connection reset"));
        assertThat(ErrorTexts.describe(e)).isEqualTo("java.lang.IllegalStateException: send failed broker said no;"
                + " caused by java.io.IOException: connection reset");
    }

    @Test
    void neverLongerThanTheColumn() {
        String text = ErrorTexts.describe(new RuntimeException("x".repeat(5000)));
        assertThat(text).hasSize(1000);
    }

    @Test
    void dropsNulAndNeverSplitsASurrogatePair() {
        String emoji = "\uD83D\uDE00";
        String text = ErrorTexts.truncate("a\0" + "b".repeat(998) + emoji + "tail");
        assertThat(text).doesNotContain("\0").hasSize(999).endsWith("b");
        assertThat(ErrorTexts.truncate("b".repeat(998) + emoji + "tail")).hasSize(1000).endsWith(emoji);
        assertThat(ErrorTexts.truncate("lone \uD83D end")).isEqualTo("lone ? end");
    }
}
