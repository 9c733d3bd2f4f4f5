package io.eeoutbox.sample.interfaces.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonRequestTest {

    @Test
    void readsStringsAndNumbers() {
        JsonObject json = JsonRequest.object(body("{\"customerId\":\"c-1\",\"total\":12.50,\"none\":null}"));
        assertEquals("c-1", JsonRequest.string(json, "customerId"));
        assertEquals(new BigDecimal("12.50"), JsonRequest.number(json, "total", "1"));
        assertNull(JsonRequest.string(json, "missing"));
        assertNull(JsonRequest.number(json, "none", "1"));
    }

    @Test
    void aFieldOfTheWrongTypeIsNamed() {
        JsonObject json = JsonRequest.object(body("{\"customerId\":7,\"total\":\"12.50\"}"));
        assertEquals("customerId", assertThrows(InvalidRequestException.class, () -> JsonRequest.string(json, "customerId")).field());
        assertEquals("total", assertThrows(InvalidRequestException.class, () -> JsonRequest.number(json, "total", "1")).field());
    }

    @Test
    void aBodyThatIsNotAJsonObjectIsNamedBody() {
        for (String bad : new String[] {"", "  ", "{", "{\"a\":1} {", "[1]", "\"text\"", "not json", "{\"a\":}"}) {
            InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> JsonRequest.object(body(bad)), bad);
            assertEquals("body", e.field(), bad);
        }
        assertEquals("body", assertThrows(InvalidRequestException.class,
                () -> JsonRequest.object(body("{\"a\":\"" + "x".repeat(JsonRequest.MAX_BODY_BYTES) + "\"}"))).field());
    }

    private static InputStream body(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
