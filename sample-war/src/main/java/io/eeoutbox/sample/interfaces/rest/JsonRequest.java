package io.eeoutbox.sample.interfaces.rest;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.NoSuchElementException;

/**
 * Reads a request body as a JSON object and its fields, answering every problem with an
 * {@link InvalidRequestException} that names the field ({@code body} for the document itself). The
 * resources read bodies themselves rather than binding them with JSON-B, so that malformed JSON and
 * a field of the wrong type get the same JSON error on every server.
 */
public final class JsonRequest {

    /** Largest body read, in bytes. */
    static final int MAX_BODY_BYTES = 64 * 1024;

    /** Deepest nesting of arrays and objects accepted; the sample's documents need three. */
    static final int MAX_DEPTH = 32;

    private JsonRequest() {
    }

    public static JsonObject object(InputStream body) {
        byte[] bytes;
        try {
            bytes = body == null ? new byte[0] : body.readNBytes(MAX_BODY_BYTES + 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (bytes.length > MAX_BODY_BYTES) {
            throw tooLarge(-1);
        }
        String text;
        try {
            // Strict: invalid UTF-8 is refused, not silently replaced by U+FFFD and stored.
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new InvalidRequestException("body", "is not valid UTF-8");
        }
        if (text.isBlank()) {
            throw new InvalidRequestException("body", "is empty; send a JSON object");
        }
        if (depth(text) > MAX_DEPTH) {
            // Checked before parsing: parsers build deep documents recursively, and what they
            // throw on 30,000 brackets differs by server (a RuntimeException, a stack overflow).
            throw new InvalidRequestException("body", "is nested deeper than " + MAX_DEPTH + " levels");
        }
        try (JsonParser parser = Json.createParser(new StringReader(text))) {
            JsonParser.Event first = parser.next();
            if (first != JsonParser.Event.START_OBJECT) {
                throw new InvalidRequestException("body", "must be a JSON object");
            }
            JsonObject object = parser.getObject();
            if (parser.hasNext()) {
                throw new InvalidRequestException("body", "has more after the JSON object");
            }
            return object;
        } catch (InvalidRequestException e) {
            throw e;
        } catch (JsonException | IllegalStateException | NoSuchElementException e) {
            throw new InvalidRequestException("body", "is not valid JSON: " + e.getMessage());
        }
    }

    /** 413 for a body of {@code length} bytes (-1: unknown, more than the limit). */
    static InvalidRequestException tooLarge(long length) {
        return InvalidRequestException.tooLarge("body", "is larger than the " + MAX_BODY_BYTES + " bytes the API reads"
                + (length < 0 ? "" : " (" + length + " bytes)"));
    }

    /** The deepest nesting of arrays and objects in {@code text}, brackets inside strings excluded. */
    static int depth(String text) {
        int depth = 0;
        int max = 0;
        boolean inString = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                max = Math.max(max, ++depth);
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return max;
    }

    /** A string field; absent or null gives null (the domain decides whether it is required). */
    public static String string(JsonObject json, String field) {
        JsonValue value = json.get(field);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (value instanceof JsonString s) {
            String text = s.getString();
            int at = unpairedSurrogate(text);
            if (at >= 0) {
                // a lone escaped surrogate decodes to half a character: no UTF-8 column or payload can hold it
                throw new InvalidRequestException(field, "contains an unpaired surrogate (\\u"
                        + Integer.toHexString(text.charAt(at)).toUpperCase(Locale.ROOT) + " at index " + at
                        + "): not Unicode text");
            }
            return text;
        }
        throw new InvalidRequestException(field, "must be a string, not " + value.getValueType());
    }

    /** The index of the first surrogate in {@code text} that is not half of a pair, or -1. */
    static int unpairedSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    /** A number field; absent or null gives null. A string, even "12.50", is not a number. */
    public static BigDecimal number(JsonObject json, String field, String example) {
        JsonValue value = json.get(field);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (value instanceof JsonNumber n) {
            return n.bigDecimalValue();
        }
        throw new InvalidRequestException(field, "must be a number such as " + example + ", not " + value.getValueType()
                + (value instanceof JsonString s ? " \"" + s.getString() + "\"" : ""));
    }
}
