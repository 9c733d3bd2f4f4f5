package io.eeoutbox.spi;

/**
 * Turns an event payload into JSON text. The default implementation (in outbox-jpa) accepts a
 * {@code String} that is already JSON, a {@code jakarta.json.JsonValue}, or any object JSON-B can
 * serialize. An application replaces it by providing its own CDI bean of this type.
 */
public interface PayloadSerializer {

    /**
     * @return the payload as JSON text
     * @throws IllegalArgumentException if the payload is not JSON or cannot be serialized; the
     *                                  message says why
     */
    String toJson(Object payload);
}
