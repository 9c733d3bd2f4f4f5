package io.eeoutbox.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.InvalidEventException;
import org.junit.jupiter.api.Test;

class EventValidatorTest {

    private final EventValidator validator = new EventValidator(64);

    @Test
    void acceptsNamesUpToTheColumnLimit() {
        String hundred = "x".repeat(100);
        assertThatCode(() -> validator.checkNames(hundred, hundred, hundred)).doesNotThrowAnyException();
    }

    @Test
    void countsCharactersNotUtf16Units() {
        // 100 emoji are 200 UTF-16 units but 100 characters: PostgreSQL's VARCHAR(100) takes them.
        String emoji = "\uD83D\uDE00".repeat(100);
        assertThatCode(() -> validator.checkNames("order", emoji, "order.created")).doesNotThrowAnyException();
    }

    @Test
    void namesTheFieldAndTheLimitWhenTooLong() {
        assertThatThrownBy(() -> validator.checkNames("order", "x".repeat(101), "order.created"))
                .isInstanceOfSatisfying(InvalidEventException.class, e -> {
                    assertThat(e.field()).isEqualTo("aggregateId");
                    assertThat(e.getMessage()).contains("aggregateId").contains("101").contains("limit is 100");
                });
    }

    @Test
    void refusesNullBlankAndNul() {
        assertThatThrownBy(() -> validator.checkNames(null, "1", "t"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("aggregateType must not be null");
        assertThatThrownBy(() -> validator.checkNames("order", "1", "  "))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("eventType must not be blank");
        assertThatThrownBy(() -> validator.checkNames("order", "a\u0000b", "t"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("aggregateId").hasMessageContaining("NUL");
        assertThatThrownBy(() -> validator.checkNames("order", "a\uD800b", "t"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("unpaired");
    }

    @Test
    void payloadLimitIsInUtf8Bytes() {
        String fits = "\"" + "é".repeat(31) + "\"";            // 2 + 62 bytes
        String over = "\"" + "é".repeat(32) + "\"";            // 2 + 64 bytes
        assertThat(EventValidator.utf8Length(fits)).isEqualTo(EventValidator.utf8(fits).length).isEqualTo(64);
        assertThatCode(() -> validator.checkPayloadJson(fits)).doesNotThrowAnyException();
        assertThatThrownBy(() -> validator.checkPayloadJson(over))
                .isInstanceOfSatisfying(InvalidEventException.class, e -> {
                    assertThat(e.field()).isEqualTo("payload");
                    assertThat(e.getMessage()).contains("66 bytes").contains("limit is 64 bytes")
                            .contains("outbox.payload.max-bytes");
                });
    }

    @Test
    void refusesWhatJsonbCannotStore() {
        assertThatThrownBy(() -> validator.checkPayloadJson("{\"a\":\"\\u0000\"}"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("\\u0000");
    }

    @Test
    void limitMustBePositive() {
        assertThatThrownBy(() -> new EventValidator(0)).hasMessageContaining("outbox.payload.max-bytes");
    }

    @Test
    void limitMustFitAJsonbValue() {
        assertThatCode(() -> new EventValidator(268_435_455)).doesNotThrowAnyException();
        assertThatThrownBy(() -> new EventValidator(268_435_456))
                .hasMessageContaining("outbox.payload.max-bytes=268435456")
                .hasMessageContaining("from 1 to 268435455");
    }
}
