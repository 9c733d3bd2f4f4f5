package io.eeoutbox.jpa;

import io.eeoutbox.spi.PayloadSerializer;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonValue;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbException;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import java.io.StringReader;
import java.util.Map;

/**
 * The default {@link PayloadSerializer}: a {@code String} must already be JSON text (it is
 * checked, not re-encoded), a {@link JsonValue} is written as it is, anything else goes through
 * JSON-B. Not a CDI bean; an application that wants another serializer provides a bean of type
 * {@code PayloadSerializer} and ee-outbox uses that instead.
 */
public final class JsonPayloadSerializer implements PayloadSerializer {

    /**
     * Created once: {@code Json.createParser} looks the JSON-P provider up on the class path at every
     * call, which cost a quarter of a producer's CPU in the benchmark.
     */
    private static final JsonParserFactory PARSERS = Json.createParserFactory(Map.of());

    private volatile Jsonb jsonb;

    @Override
    public String toJson(Object payload) {
        if (payload == null) {
            throw new IllegalArgumentException("must not be null (use JsonValue.NULL or the text \"null\" for a JSON null)");
        }
        if (payload instanceof JsonValue value) {
            return value.toString();
        }
        if (payload instanceof CharSequence text) {
            String json = text.toString();
            checkIsJson(json);
            return json;
        }
        try {
            return jsonb().toJson(payload);
        } catch (JsonbException | JsonException e) {
            throw new IllegalArgumentException("cannot be serialized to JSON with JSON-B (" + payload.getClass().getName()
                    + "): " + e.getMessage(), e);
        }
    }

    /** Throws IllegalArgumentException unless {@code json} is exactly one JSON value. */
    static void checkIsJson(String json) {
        if (json.isBlank()) {
            throw new IllegalArgumentException("is an empty string, not JSON");
        }
        int depth = 0;
        int values = 0;
        try (JsonParser parser = PARSERS.createParser(new StringReader(json))) {
            while (parser.hasNext()) {
                JsonParser.Event event = parser.next();
                switch (event) {
                    case START_ARRAY, START_OBJECT -> {
                        if (depth == 0) {
                            values++;
                        }
                        depth++;
                    }
                    case END_ARRAY, END_OBJECT -> depth--;
                    case KEY_NAME -> {
                        // part of an object
                    }
                    default -> {
                        if (depth == 0) {
                            values++;
                        }
                    }
                }
                if (values > 1) {
                    throw new IllegalArgumentException("is not valid JSON: more than one value at the top level");
                }
            }
        } catch (JsonException | IllegalStateException | java.util.NoSuchElementException e) {
            throw new IllegalArgumentException("is not valid JSON: " + e.getMessage(), e);
        }
        if (values != 1 || depth != 0) {
            throw new IllegalArgumentException("is not valid JSON: incomplete value");
        }
    }

    private Jsonb jsonb() {
        Jsonb result = jsonb;
        if (result == null) {
            synchronized (this) {
                result = jsonb;
                if (result == null) {
                    result = JsonbBuilder.create();
                    jsonb = result;
                }
            }
        }
        return result;
    }
}
