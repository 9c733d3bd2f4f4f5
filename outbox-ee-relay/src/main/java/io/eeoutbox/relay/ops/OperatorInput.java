package io.eeoutbox.relay.ops;

import io.eeoutbox.relay.store.DeadLetterFilter;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;

/**
 * The one parser of what an operator types, for every surface of {@link RelayOperations} (the MBean, the console's
 * JSON API, a server's management model): dead-letter filters, instants, event ids, ages and page cursors, checked
 * before anything is read or changed. Each problem is a {@link BadInput} naming the field and what it accepts.
 */
public final class OperatorInput {

    /** The largest page of dead letters. */
    public static final int MAX_PAGE = 200;
    public static final int DEFAULT_PAGE = 50;
    static final int MAX_TEXT = 100;
    static final int MAX_ERROR_TEXT = 200;

    /** The fields of a {@link DeadLetterFilter}, by the names every surface uses. */
    public static final Set<String> FILTER_FIELDS = Set.of("eventType", "aggregateType", "aggregateId", "createdFrom",
            "createdTo", "errorText");
    public static final Set<String> PAGE_FIELDS = Set.of("after", "limit");

    private OperatorInput() {
    }

    /** A value an operator gave that is refused: the {@code field} and a message saying what is accepted. */
    public static final class BadInput extends Exception {
        private final String field;

        public BadInput(String field, String message) {
            super(message);
            this.field = field;
        }

        /** The field (parameter, member or argument name) at fault; null when the input as a whole is. */
        public String field() {
            return field;
        }
    }

    /** Refuses any name of {@code given} not in {@code allowed} (a typo must not widen a retry to all rows). */
    public static void onlyKnown(Iterable<String> given, Set<String> allowed) throws BadInput {
        for (String k : given) {
            if (!allowed.contains(k)) {
                throw new BadInput(k, "unknown field '" + k + "'; accepted: " + new TreeSet<>(allowed));
            }
        }
    }

    /**
     * A filter from the values of {@link #FILTER_FIELDS} ({@code get} answers null for a field not given); blank
     * parts match all, texts are stripped, {@code createdFrom} must be before {@code createdTo}.
     */
    public static DeadLetterFilter filter(Function<String, String> get) throws BadInput {
        Instant from = instant("createdFrom", get.apply("createdFrom"));
        Instant to = instant("createdTo", get.apply("createdTo"));
        if (from != null && to != null && !from.isBefore(to)) {
            throw new BadInput("createdTo", "createdFrom (" + from + ") must be before createdTo (" + to + ")");
        }
        return new DeadLetterFilter(text("eventType", get.apply("eventType"), MAX_TEXT),
                text("aggregateType", get.apply("aggregateType"), MAX_TEXT),
                text("aggregateId", get.apply("aggregateId"), MAX_TEXT), from, to,
                text("errorText", get.apply("errorText"), MAX_ERROR_TEXT));
    }

    /** A page size, 1..{@value #MAX_PAGE}; blank means {@value #DEFAULT_PAGE}. */
    public static int limit(String value) throws BadInput {
        if (value == null || value.isBlank()) {
            return DEFAULT_PAGE;
        }
        long n = number("limit", value);
        if (n < 1 || n > MAX_PAGE) {
            throw new BadInput("limit", "limit must be 1.." + MAX_PAGE + ", was " + value.strip());
        }
        return (int) n;
    }

    /** A page cursor: 0 (blank) or a dead letter's seq. */
    public static long after(String value) throws BadInput {
        if (value == null || value.isBlank()) {
            return 0;
        }
        long n = number("after", value);
        if (n < 0) {
            throw new BadInput("after", "after must be 0 or a dead letter's seq from nextAfter, was " + value.strip());
        }
        return n;
    }

    /** An event's id, a UUID in its canonical form, as {@code field}. */
    public static UUID id(String field, String value) throws BadInput {
        if (value == null || value.isBlank()) {
            throw new BadInput(field, field + " is required: an event's UUID");
        }
        String s = value.strip();
        try {
            UUID id = UUID.fromString(s);
            if (!id.toString().equalsIgnoreCase(s)) {
                throw new IllegalArgumentException();
            }
            return id;
        } catch (IllegalArgumentException e) {
            throw new BadInput(field, field + " must be an event's UUID, was '" + abbreviate(value) + "'");
        }
    }

    /** An age as an ISO-8601 duration ({@code P7D}, {@code PT12H}), 0 or more, as {@code olderThan}. */
    public static Duration olderThan(String value) throws BadInput {
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

    /** An age in whole days, 0 or more, as {@code field}. */
    public static Duration days(String field, long days) throws BadInput {
        if (days < 0) {
            throw new BadInput(field, field + " must be 0 or more, was " + days);
        }
        return Duration.ofDays(days);
    }

    /** An ISO-8601 instant, an offset date-time, or a date (midnight UTC); blank means none. */
    public static Instant instant(String field, String value) throws BadInput {
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

    /** Who asks for a fleet-wide action, as the audit records it: 1 to 200 characters, no control characters. */
    public static String requestedBy(String value) throws BadInput {
        String s = text("requestedBy", value, 200);
        if (s == null) {
            throw new BadInput("requestedBy", "requestedBy is required: who asks (a user name), 1 to 200 characters");
        }
        return s;
    }

    /** At most 60 characters of {@code s}, for messages that repeat what was given. */
    public static String abbreviate(String s) {
        return s == null ? "" : s.length() <= 60 ? s : s.substring(0, 60) + "…";
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
}
