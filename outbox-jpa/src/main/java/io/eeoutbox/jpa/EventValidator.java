package io.eeoutbox.jpa;

import io.eeoutbox.InvalidEventException;
import io.eeoutbox.OutboxService;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/**
 * Checks an event against the limits of the {@code outbox_events} columns before anything is
 * written, so that bad input fails with a message naming the field and the limit instead of a
 * database error that would leave the caller's transaction half done.
 */
public final class EventValidator {

    /** VARCHAR(100) of aggregate_type, aggregate_id and event_type in V1__outbox_events.sql. */
    public static final int MAX_NAME_LENGTH = 100;
    /** The default payload limit: 1 MiB of UTF-8 JSON. */
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 1024 * 1024;
    /**
     * The largest payload limit: PostgreSQL's largest {@code jsonb} value (268435455 bytes). Its binary form can be
     * larger than the JSON text, so a payload close to it may still be refused by the database.
     */
    public static final int MAX_PAYLOAD_LIMIT = 268_435_455;

    private final int maxPayloadBytes;

    public EventValidator(int maxPayloadBytes) {
        if (maxPayloadBytes < 1 || maxPayloadBytes > MAX_PAYLOAD_LIMIT) {
            throw new IllegalArgumentException("outbox.payload.max-bytes=" + maxPayloadBytes + " is not allowed: it must"
                    + " be a whole number of bytes from 1 to " + MAX_PAYLOAD_LIMIT + " (PostgreSQL's largest jsonb value)");
        }
        this.maxPayloadBytes = maxPayloadBytes;
    }

    public int maxPayloadBytes() {
        return maxPayloadBytes;
    }

    /** Checks aggregateType, aggregateId and eventType. */
    public void checkNames(String aggregateType, String aggregateId, String eventType) {
        checkName("aggregateType", aggregateType);
        checkName("aggregateId", aggregateId);
        checkName("eventType", eventType);
    }

    static void checkName(String field, String value) {
        if (value == null) {
            throw new InvalidEventException(field, "must not be null");
        }
        if (value.isBlank()) {
            throw new InvalidEventException(field, "must not be blank");
        }
        int length = value.codePointCount(0, value.length());
        if (length > MAX_NAME_LENGTH) {
            throw new InvalidEventException(field, "is " + length + " characters long, the limit is " + MAX_NAME_LENGTH);
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == 0) {
                throw new InvalidEventException(field, "contains a NUL character (U+0000), which PostgreSQL text cannot store");
            }
            if (Character.isSurrogate(c) && !validSurrogatePair(value, i)) {
                throw new InvalidEventException(field, "contains an unpaired UTF-16 surrogate at index " + i + ": not valid Unicode");
            }
            if (Character.isHighSurrogate(c)) {
                i++;
            }
        }
    }

    /**
     * Checks a delayed event's time: at most {@link OutboxService#MAX_DELAY_DAYS} days after {@code now} (this
     * server's clock: a skew of minutes does not matter against a bound of a year). Null or past is "now".
     */
    public static void checkNotBefore(Instant notBefore, Instant now) {
        if (notBefore != null && notBefore.isAfter(now.plus(Duration.ofDays(OutboxService.MAX_DELAY_DAYS)))) {
            throw new InvalidEventException("notBefore", "is " + notBefore + ", more than the limit of "
                    + OutboxService.MAX_DELAY_DAYS + " days ahead (OutboxService.MAX_DELAY_DAYS)");
        }
    }

    /**
     * Checks the serialized payload: its size in UTF-8 and what PostgreSQL's jsonb can store.
     * Whether it is JSON at all is checked by the serializer.
     */
    public void checkPayloadJson(String json) {
        if (json == null) {
            throw new InvalidEventException("payload", "must not be null (use a JSON null literal, \"null\", if you mean it)");
        }
        // Count UTF-8 bytes without copying when the text is clearly small or clearly large.
        long bytes = utf8Length(json);
        if (bytes > maxPayloadBytes) {
            throw new InvalidEventException("payload", "is " + bytes + " bytes of JSON, the limit is " + maxPayloadBytes
                    + " bytes (outbox.payload.max-bytes)");
        }
        if (json.contains("\\u0000")) {
            throw new InvalidEventException("payload", "contains the escape \\u0000, which PostgreSQL jsonb cannot store");
        }
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (Character.isSurrogate(c)) {
                if (!validSurrogatePair(json, i)) {
                    throw new InvalidEventException("payload", "contains an unpaired UTF-16 surrogate at index " + i + ": not valid Unicode");
                }
                i++;
            }
        }
    }

    private static boolean validSurrogatePair(String s, int i) {
        char c = s.charAt(i);
        return Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }

    static long utf8Length(String s) {
        long bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** The UTF-8 bytes of {@code s}; for tests. */
    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
