package io.eeoutbox.spi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** The outcome of {@link Publisher#publishAll}: the failed messages by event id, with their causes. */
public final class PublishResult {

    private static final PublishResult ALL_PUBLISHED = new PublishResult(Map.of());

    private final Map<UUID, Throwable> failures;

    private PublishResult(Map<UUID, Throwable> failures) {
        this.failures = failures;
    }

    /** Every message of the batch was accepted by the broker. */
    public static PublishResult allPublished() {
        return ALL_PUBLISHED;
    }

    /** The messages in {@code failures} failed; all others of the batch were accepted. */
    public static PublishResult of(Map<UUID, ? extends Throwable> failures) {
        if (failures.isEmpty()) {
            return ALL_PUBLISHED;
        }
        return new PublishResult(Collections.unmodifiableMap(new LinkedHashMap<>(failures)));
    }

    /** The failed messages' ids and causes (unmodifiable). */
    public Map<UUID, Throwable> failures() {
        return failures;
    }

    public boolean isFailed(UUID eventId) {
        return failures.containsKey(eventId);
    }

    @Override
    public String toString() {
        return "PublishResult[failed=" + failures.size() + "]";
    }
}
