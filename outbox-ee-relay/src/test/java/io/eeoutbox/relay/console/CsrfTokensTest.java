package io.eeoutbox.relay.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CsrfTokensTest {

    @Test
    void csrfTokensAreBoundToTheUserAndTheirCookie() {
        CsrfTokens tokens = new CsrfTokens();
        String t = tokens.issue("alice");
        assertThat(tokens.valid("alice", t, t)).isTrue();
        assertThat(tokens.valid("bob", t, t)).isFalse();
        assertThat(tokens.valid("alice", t, null)).isFalse();
        assertThat(tokens.valid("alice", null, t)).isFalse();
        assertThat(tokens.valid("alice", t, tokens.issue("alice"))).isFalse();
        assertThat(new CsrfTokens().valid("alice", t, t)).as("another start-up's key").isFalse();
    }
}
