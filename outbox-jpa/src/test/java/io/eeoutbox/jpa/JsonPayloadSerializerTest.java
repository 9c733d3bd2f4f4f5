package io.eeoutbox.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.json.Json;
import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonPayloadSerializerTest {

    private final JsonPayloadSerializer serializer = new JsonPayloadSerializer();

    public record Created(String orderId, BigDecimal total) {
    }

    @Test
    void keepsJsonTextAsItIs() {
        assertThat(serializer.toJson("{\"a\": [1, 2]}")).isEqualTo("{\"a\": [1, 2]}");
        assertThat(serializer.toJson("42")).isEqualTo("42");
        assertThat(serializer.toJson("null")).isEqualTo("null");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{oops", "", "   ", "{\"a\":1} {\"b\":2}", "[1,2", "'single'", "{\"a\":}"})
    void refusesTextThatIsNotOneJsonValue(String text) {
        assertThatThrownBy(() -> serializer.toJson(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("JSON");
    }

    @Test
    void writesJsonValues() {
        assertThat(serializer.toJson(Json.createObjectBuilder().add("id", "o-1").build())).isEqualTo("{\"id\":\"o-1\"}");
    }

    @Test
    void serializesObjectsWithJsonb() {
        assertThat(serializer.toJson(new Created("o-1", new BigDecimal("12.50"))))
                .isEqualTo("{\"orderId\":\"o-1\",\"total\":12.50}");
        assertThat(serializer.toJson(new TreeMap<>(Map.of("b", 2, "a", 1)))).isEqualTo("{\"a\":1,\"b\":2}");
    }

    public static final class Exploding {
        public String getValue() {
            throw new IllegalStateException("boom");
        }
    }

    @Test
    void saysWhenAnObjectCannotBeSerialized() {
        assertThatThrownBy(() -> serializer.toJson(new Exploding()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be serialized").hasMessageContaining("Exploding");
    }

    @Test
    void refusesNull() {
        assertThatThrownBy(() -> serializer.toJson(null)).hasMessageContaining("must not be null");
    }
}
