package io.eeoutbox.relay.store;

import java.time.Instant;
import java.util.Locale;

/**
 * Which dead letters an operator means: each part is optional (null matches all). {@code createdFrom}
 * is inclusive, {@code createdTo} exclusive; {@code errorText} is looked for in the last error,
 * case-insensitively and literally.
 */
public record DeadLetterFilter(String eventType, String aggregateType, String aggregateId, Instant createdFrom,
                               Instant createdTo, String errorText) {

    public static final DeadLetterFilter ALL = new DeadLetterFilter(null, null, null, null, null, null);

    /**
     * Whether a dead letter with these columns matches, by the rule of sql/queries' {@code ...DeadLettersMatching}
     * statements: for stores that keep rows in memory (tests), held to the SQL by the store contract.
     */
    public boolean matches(String eventType, String aggregateType, String aggregateId, Instant createdAt,
                           String lastError) {
        return (this.eventType == null || this.eventType.equals(eventType))
                && (this.aggregateType == null || this.aggregateType.equals(aggregateType))
                && (this.aggregateId == null || this.aggregateId.equals(aggregateId))
                && (createdFrom == null || !createdAt.isBefore(createdFrom))
                && (createdTo == null || createdAt.isBefore(createdTo))
                && (errorText == null || (lastError != null
                        && lastError.toLowerCase(Locale.ROOT).contains(errorText.toLowerCase(Locale.ROOT))));
    }

    /** For logs: the parts that are set. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        part(sb, "eventType", eventType);
        part(sb, "aggregateType", aggregateType);
        part(sb, "aggregateId", aggregateId);
        part(sb, "createdFrom", createdFrom);
        part(sb, "createdTo", createdTo);
        part(sb, "errorText", errorText);
        return sb.append('}').toString();
    }

    private static void part(StringBuilder sb, String name, Object value) {
        if (value != null) {
            sb.append(sb.length() > 1 ? ", " : "").append(name).append('=').append(value);
        }
    }
}
