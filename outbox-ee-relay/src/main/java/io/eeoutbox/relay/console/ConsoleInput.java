package io.eeoutbox.relay.console;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The console API's input, checked before anything is read or changed: each problem is a
 * {@link BadInput} naming the field and what it accepts.
 */
final class ConsoleInput {

    /** The largest page of dead letters. */
    static final int MAX_PAGE = 200;
    static final int DEFAULT_PAGE = 50;
    static final int MAX_TEXT = 100;
    static final int MAX_ERROR_TEXT = 200;

    static final Set<String> FILTER_FIELDS = Set.of("eventType", "aggregateType", "aggregateId", "createdFrom",
            "createdTo", "errorText");
    static final Set<String> PAGE_FIELDS = Set.of("after", "limit");

    private ConsoleInput() {
    }

    /** A 4xx answer: {@code status}, the offending {@code field} and a message saying what is accepted. */
    static final class BadInput extends Exception {
        final int status;
        final String field;

        BadInput(int status, String field, String message) {
            super(message);
            this.status = status;
            this.field = field;
        }

        BadInput(String field, String message) {
            this(400, field, message);
        }
    }

    /** Refuses any key of {@code given} not in {@code allowed} (a typo must not widen a retry to all rows). */
    static void onlyKnown(Iterable<String> given, Set<String> allowed) throws BadInput {
        for (String k : given) {
            if (!allowed.contains(k)) {
                throw new BadInput(k, "unknown field '" + k + "'; accepted: " + new java.util.TreeSet<>(allowed));
            }
        }
    }

    static DeadLetterFilter filter(Function<String, String> get) throws BadInput {
        Instant from = instant("createdFrom", get.apply("createdFrom"));
        Instant to = instant("createdTo", get.apply("createdTo"));
        if (from != null && to != null && !from.isBefore(to)) {
            throw new BadInput("createdTo", "createdTo (" + to + ") must be after createdFrom (" + from + ")");
        }
        return new DeadLetterFilter(text("eventType", get.apply("eventType"), MAX_TEXT),
                text("aggregateType", get.apply("aggregateType"), MAX_TEXT),
                text("aggregateId", get.apply("aggregateId"), MAX_TEXT), from, to,
                text("errorText", get.apply("errorText"), MAX_ERROR_TEXT));
    }

    /** Query parameters as a single-valued lookup; a repeated parameter is refused. */
    static Function<String, String> params(Map<String, String[]> params) throws BadInput {
        for (Map.Entry<String, String[]> e : params.entrySet()) {
            if (e.getValue().length > 1) {
                throw new BadInput(e.getKey(), e.getKey() + " is given " + e.getValue().length + " times; give it once");
            }
        }
        return k -> {
            String[] v = params.get(k);
            return v == null ? null : v[0];
        };
    }

    /** A JSON object's members as strings; a member that is not a string (or null) is refused. */
    static Function<String, String> members(JsonObject body) throws BadInput {
        for (Map.Entry<String, JsonValue> e : body.entrySet()) {
            JsonValue.ValueType t = e.getValue().getValueType();
            if (t != JsonValue.ValueType.STRING && t != JsonValue.ValueType.NULL) {
                throw new BadInput(e.getKey(), e.getKey() + " must be a string, was " + t.toString().toLowerCase());
            }
        }
        return k -> body.get(k) instanceof JsonString s ? s.getString() : null;
    }

    static int limit(String value) throws BadInput {
        if (value == null || value.isBlank()) {
            return DEFAULT_PAGE;
        }
        long n = number("limit", value);
        if (n < 1 || n > MAX_PAGE) {
            throw new BadInput("limit", "limit must be 1.." + MAX_PAGE + ", was " + value.strip());
        }
        return (int) n;
    }

    static long after(String value) throws BadInput {
        if (value == null || value.isBlank()) {
            return 0;
        }
        long n = number("after", value);
        if (n < 0) {
            throw new BadInput("after", "after must be 0 or a dead letter's seq from nextAfter, was " + value.strip());
        }
        return n;
    }

    static UUID id(String value) throws BadInput {
        try {
            UUID id = UUID.fromString(value);
            if (!id.toString().equalsIgnoreCase(value)) {
                throw new IllegalArgumentException();
            }
            return id;
        } catch (IllegalArgumentException e) {
            throw new BadInput("id", "id must be an event's UUID, was '" + abbreviate(value) + "'");
        }
    }

    static Duration olderThan(String value) throws BadInput {
        if (value == null || value.isBlank()) {
            throw new BadInput("olderThan", "olderThan is required: an ISO-8601 duration such as P7D or PT12H");
        }
        Duration d;
        try {
            d = Duration.parse(value.strip());
        } catch (DateTimeParseException e) {
            throw new BadInput("olderThan", "olderThan must be an ISO-8601 duration such as P7D or PT12H, was '"
                    + abbreviate(value) + "'");
        }
        if (d.isNegative()) {
            throw new BadInput("olderThan", "olderThan must not be negative, was " + value.strip());
        }
        return d;
    }

    private static long number(String field, String value) throws BadInput {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new BadInput(field, field + " must be a whole number, was '" + abbreviate(value) + "'");
        }
    }

    private static String text(String field, String value, int max) throws BadInput {
        if (value == null || value.isBlank()) {
            return null;
        }
        String s = value.strip();
        if (s.length() > max || s.chars().anyMatch(Character::isISOControl)) {
            throw new BadInput(field, field + " must be at most " + max + " characters without control characters");
        }
        return s;
    }

    /** An ISO-8601 instant, an offset date-time, or a date (midnight UTC); blank means none. */
    static Instant instant(String field, String value) throws BadInput {
        if (value == null || value.isBlank()) {
            return null;
        }
        String s = value.strip();
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException notInstant) {
            try {
                return OffsetDateTime.parse(s).toInstant();
            } catch (DateTimeParseException notOffset) {
                try {
                    return LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant();
                } catch (DateTimeParseException notDate) {
                    throw new BadInput(field, field + " must be an ISO-8601 instant such as 2026-03-01T12:00:00Z or a"
                            + " date such as 2026-03-01, was '" + abbreviate(value) + "'");
                }
            }
        }
    }

    static String abbreviate(String s) {
        return s == null ? "" : s.length() <= 60 ? s : s.substring(0, 60) + "…";
    }
}
