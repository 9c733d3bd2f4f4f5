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

    @Test
    void invalidUtf8IsRefusedNotReplaced() {
        byte[] bytes = "{\"customerId\":\"c-\u0001\",\"total\":1}".getBytes(StandardCharsets.UTF_8);
        bytes[16] = (byte) 0xC3; // a lead byte without its continuation byte: not UTF-8
        InvalidRequestException e = assertThrows(InvalidRequestException.class,
                () -> JsonRequest.object(new ByteArrayInputStream(bytes)));
        assertEquals("body", e.field());
        assertEquals(true, e.getMessage().contains("UTF-8"), e.getMessage());
    }

    @Test
    void deeplyNestedJsonIsARequestErrorNotAServerError() {
        String deep = "{\"a\":" + "[".repeat(30_000) + "]".repeat(30_000) + "}";
        InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> JsonRequest.object(body(deep)));
        assertEquals("body", e.field());
        assertEquals(true, e.getMessage().contains("deeper than " + JsonRequest.MAX_DEPTH), e.getMessage());
    }

    @Test
    void nestingUpToTheLimitIsAcceptedAndBracketsInStringsDoNotCount() {
        int inner = JsonRequest.MAX_DEPTH - 1;
        String atLimit = "{\"a\":" + "[".repeat(inner) + "]".repeat(inner) + "}";
        assertEquals(true, JsonRequest.object(body(atLimit)).containsKey("a"));
        String bracketsInString = "{\"note\":\"" + "[{\\\"".repeat(100) + "\"}";
        assertEquals(true, JsonRequest.object(body(bracketsInString)).containsKey("note"));
        assertThrows(InvalidRequestException.class,
                () -> JsonRequest.object(body("{\"a\":" + "[".repeat(inner + 1) + "]".repeat(inner + 1) + "}")));
    }

    private static InputStream body(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
