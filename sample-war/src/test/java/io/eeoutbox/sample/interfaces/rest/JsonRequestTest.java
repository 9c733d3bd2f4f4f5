package io.eeoutbox.sample.interfaces.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Set;
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
    }

    @Test
    void aBodyOverTheLimitIs413NamingTheBody() {
        InvalidRequestException e = assertThrows(InvalidRequestException.class,
                () -> JsonRequest.object(body("{\"a\":\"" + "x".repeat(JsonRequest.MAX_BODY_BYTES) + "\"}")));
        assertEquals("body", e.field());
        assertEquals(413, e.status().getStatusCode());
        assertEquals(true, e.getMessage().contains(JsonRequest.MAX_BODY_BYTES + " bytes"), e.getMessage());
        String atLimit = "{\"a\":\"" + "x".repeat(JsonRequest.MAX_BODY_BYTES - 8) + "\"}";
        assertEquals(JsonRequest.MAX_BODY_BYTES, atLimit.length());
        assertEquals(true, JsonRequest.object(body(atLimit)).containsKey("a"));
    }

    @Test
    void aDeclaredLengthOverTheLimitIsRefusedBeforeTheBodyIsRead() {
        InvalidRequestException refused = BodySizeFilter.refusal("12582912");
        assertEquals(413, refused.status().getStatusCode());
        assertEquals("body", refused.field());
        assertEquals(true, refused.getMessage().contains("12582912 bytes"), refused.getMessage());
        assertEquals(413, BodySizeFilter.refusal(String.valueOf(JsonRequest.MAX_BODY_BYTES + 1)).status().getStatusCode());
        assertNull(BodySizeFilter.refusal(String.valueOf(JsonRequest.MAX_BODY_BYTES)));
        assertNull(BodySizeFilter.refusal("0"));
        assertNull(BodySizeFilter.refusal(null));
        assertNull(BodySizeFilter.refusal("twelve"));
    }

    @Test
    void anUnpairedSurrogateIsNamedByItsField() {
        for (String escaped : new String[] {"\\ud800", "x\\udc00", "\\ud83d\\ud83d\\udca5", "\\ud83d"}) {
            JsonObject json = JsonRequest.object(body("{\"customerId\":\"" + escaped + "\",\"total\":1}"));
            InvalidRequestException e = assertThrows(InvalidRequestException.class,
                    () -> JsonRequest.string(json, "customerId"), escaped);
            assertEquals("customerId", e.field());
            assertEquals(400, e.status().getStatusCode());
            assertEquals(true, e.getMessage().contains("unpaired surrogate"), e.getMessage());
        }
        JsonObject pair = JsonRequest.object(body("{\"customerId\":\"c-\\ud83d\\udca5\",\"total\":1}"));
        assertEquals("c-\ud83d\udca5", JsonRequest.string(pair, "customerId"));
        assertEquals(-1, JsonRequest.unpairedSurrogate("c-\ud83d\udca5 \u00e9"));
        assertEquals(2, JsonRequest.unpairedSurrogate("c-\udca5\ud83d"));
    }

    @Test
    void theErrorCodesFollowTheStatus() {
        assertEquals("invalid_request", ApiError.code(400));
        assertEquals("not_found", ApiError.code(404));
        assertEquals("method_not_allowed", ApiError.code(405));
        assertEquals("too_large", ApiError.code(413));
        assertEquals("unsupported_media_type", ApiError.code(415));
        assertEquals("internal_error", ApiError.code(500));
    }

    @Test
    void whatJaxRsRefusesIsDescribedInTheSameShape() {
        ApiError unsupported = WebApplicationExceptionMapper.error(415, Set.of());
        assertEquals("unsupported_media_type", unsupported.error());
        assertNull(unsupported.field());
        assertEquals(true, unsupported.message().contains("application/json"), unsupported.message());
        ApiError notAllowed = WebApplicationExceptionMapper.error(405, Set.of("POST", "GET"));
        assertEquals("method_not_allowed", notAllowed.error());
        assertEquals(true, notAllowed.message().endsWith("it takes GET, POST"), notAllowed.message());
        assertEquals("not_found", WebApplicationExceptionMapper.error(404, Set.of()).error());
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
