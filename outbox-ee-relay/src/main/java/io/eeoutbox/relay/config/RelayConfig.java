package io.eeoutbox.relay.config;

import static io.eeoutbox.relay.config.RelaySettings.*;

import java.net.InetAddress;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.Function;

/**
 * The relay engine's settings in effect: immutable, validated, a value (or its default) for every key of
 * {@link RelaySettings}, where each key is declared once with its type, default, range and description.
 *
 * <p>{@link #load(Function)} reads the keys from any lookup (MicroProfile Config, system properties,
 * environment variables: see {@link ConfigLookups}); {@link #builder()} sets them in code with
 * {@link Builder#set}. Every invalid value fails with an {@link IllegalArgumentException} that names the key,
 * the value and what is allowed.
 */
public final class RelayConfig {

    /** The fallback poll while the NOTIFY listener is connected, unless {@code poll-interval} is set. */
    public static final Duration DEFAULT_POLL_INTERVAL_LISTENING = Duration.ofSeconds(5);
    /** The fallback poll while nothing else wakes the relay, unless {@code poll-interval} is set. */
    public static final Duration DEFAULT_POLL_INTERVAL_NOT_LISTENING = Duration.ofSeconds(1);

    private final Map<Setting<?>, Object> values;

    private RelayConfig(Map<Setting<?>, Object> values) {
        this.values = values;
    }

    public static RelayConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder(new IdentityHashMap<>());
    }

    /** Reads every engine setting from {@code lookup}; a key it has no (or an empty) value for keeps its default. */
    public static RelayConfig load(Function<String, Optional<String>> lookup) {
        Objects.requireNonNull(lookup, "lookup");
        Builder b = builder();
        for (Setting<?> s : RelaySettings.ALL) {
            read(lookup, s, b);
        }
        return b.build();
    }

    private static <T> void read(Function<String, Optional<String>> lookup, Setting<T> s, Builder b) {
        Optional<String> raw = lookup.apply(s.key());
        if (raw != null && raw.isPresent() && !raw.get().isBlank()) {
            b.set(s, s.parse(raw.get()));
        }
    }

    /** The value of {@code setting}: as set, else its default (null for a setting unset by default). */
    @SuppressWarnings("unchecked")
    public <T> T get(Setting<T> setting) {
        return values.containsKey(setting) ? (T) values.get(setting) : setting.defaultValue();
    }

    public Builder toBuilder() {
        return new Builder(new IdentityHashMap<>(values));
    }

    // --- typed reads, for the engine's code ------------------------------------------------------------

    public String name() {
        return get(NAME);
    }

    public boolean enabled() {
        return get(ENABLED);
    }

    public int batchSize() {
        return get(BATCH_SIZE);
    }

    public int batchMaxBytes() {
        return get(BATCH_MAX_BYTES);
    }

    public Optional<Duration> pollInterval() {
        return Optional.ofNullable(get(POLL_INTERVAL));
    }

    /** The fallback poll in force: the setting, or by default PT5S while listening and PT1S otherwise. */
    public Duration pollInterval(boolean listening) {
        return pollInterval().orElse(listening ? DEFAULT_POLL_INTERVAL_LISTENING : DEFAULT_POLL_INTERVAL_NOT_LISTENING);
    }

    public Duration busyPollInterval() {
        return get(BUSY_POLL_INTERVAL);
    }

    public int maxAttempts() {
        return get(MAX_ATTEMPTS);
    }

    public Duration backoffInitial() {
        return get(BACKOFF_INITIAL);
    }

    public double backoffFactor() {
        return get(BACKOFF_FACTOR);
    }

    public Duration backoffMax() {
        return get(BACKOFF_MAX);
    }

    public double backoffJitter() {
        return get(BACKOFF_JITTER);
    }

    public Duration lease() {
        return get(LEASE);
    }

    public boolean ordered() {
        return get(ORDERED);
    }

    /** Whether the relay LISTENs: never in cdc mode, where no claim waits for a new row (docs/cdc.md). */
    public boolean notifyEnabled() {
        return get(NOTIFY_ENABLED) && !cdc();
    }

    public String notifyChannel() {
        return get(NOTIFY_CHANNEL);
    }

    public Optional<String> notifyJdbcUrl() {
        return Optional.ofNullable(get(NOTIFY_JDBC_URL));
    }

    public Optional<String> notifyUser() {
        return Optional.ofNullable(get(NOTIFY_USER));
    }

    public Optional<String> notifyPassword() {
        return Optional.ofNullable(get(NOTIFY_PASSWORD));
    }

    public CompletionMode completion() {
        return get(COMPLETION);
    }

    public Duration retention() {
        return get(RETENTION);
    }

    public Duration cleanupInterval() {
        return get(CLEANUP_INTERVAL);
    }

    public int cleanupBatchSize() {
        return get(CLEANUP_BATCH_SIZE);
    }

    /** How long inbox records are kept: {@code inbox.retention}, and {@code inbox.retention.per-consumer}'s own. */
    public InboxRetention inboxRetention() {
        return new InboxRetention(get(INBOX_RETENTION), get(INBOX_RETENTION_PER_CONSUMER));
    }

    public Duration claimRescanInterval() {
        return get(CLAIM_RESCAN_INTERVAL);
    }

    public String synchronousCommit() {
        return get(SYNCHRONOUS_COMMIT);
    }

    public RelayMode mode() {
        return get(MODE);
    }

    /** Whether a CDC connector publishes and the relay only keeps the outbox ({@code outbox.relay.mode=cdc}). */
    public boolean cdc() {
        return mode() == RelayMode.CDC;
    }

    public Duration cdcRetention() {
        return get(CDC_RETENTION);
    }

    public String cdcSlot() {
        return get(CDC_SLOT);
    }

    /** Every setting with the value in effect, as written in configuration; secrets masked. */
    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(", ", "RelayConfig[", "]");
        for (Setting<?> s : RelaySettings.ALL) {
            Object value = get(s);
            if (value != null) {
                j.add(s.key().substring("outbox.relay.".length()) + "=" + show(s));
            }
        }
        return j.toString();
    }

    private <T> String show(Setting<T> s) {
        return s.show(get(s));
    }

    private static String defaultName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "localhost";
        }
        String name = host + "-" + ProcessHandle.current().pid();
        return name.length() <= 100 ? name : name.substring(name.length() - 100);
    }

    /** Sets settings in code: {@code RelayConfig.builder().set(RelaySettings.BATCH_SIZE, 200).build()}. */
    public static final class Builder {
        private final Map<Setting<?>, Object> values;

        private Builder(Map<Setting<?>, Object> values) {
            this.values = values;
        }

        /** Sets one setting, checked against its declaration (the value is trimmed when it is text). */
        public <T> Builder set(Setting<T> setting, T value) {
            T v = value instanceof String text && !setting.isSecret() ? setting.parse(text) : value;
            values.put(setting, setting.check(v));
            return this;
        }

        /** Back to the default. */
        public Builder unset(Setting<?> setting) {
            values.remove(setting);
            return this;
        }

        /** Checks the rules that involve more than one setting, and builds. */
        public RelayConfig build() {
            Map<Setting<?>, Object> v = new IdentityHashMap<>(values);
            v.putIfAbsent(NAME, defaultName());
            RelayConfig c = new RelayConfig(v);
            if (c.backoffMax().compareTo(c.backoffInitial()) < 0) {
                throw Setting.invalid(BACKOFF_MAX.key(), c.backoffMax(),
                        "a duration not below " + BACKOFF_INITIAL.key() + "=" + c.backoffInitial());
            }
            if ((c.notifyUser().isPresent() || c.notifyPassword().isPresent()) && c.notifyJdbcUrl().isEmpty()) {
                throw Setting.invalid(NOTIFY_USER.key(), c.notifyUser().orElse("(unset)"),
                        "set only together with " + NOTIFY_JDBC_URL.key());
            }
            return c;
        }
    }
}
