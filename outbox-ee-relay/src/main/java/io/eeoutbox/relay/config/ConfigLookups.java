package io.eeoutbox.relay.config;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/** Sources of configuration values for {@link RelayConfig#load(Function)}. */
public final class ConfigLookups {

    private ConfigLookups() {
    }

    /** System properties, then environment variables named as MicroProfile Config names them. */
    public static Function<String, Optional<String>> systemPropertiesThenEnvironment() {
        return firstOf(List.of(systemProperties(), environment(System.getenv())));
    }

    public static Function<String, Optional<String>> systemProperties() {
        return key -> Optional.ofNullable(System.getProperty(key));
    }

    /**
     * Environment variables: {@code outbox.relay.batch-size} is looked up as {@code outbox.relay.batch-size},
     * then {@code outbox_relay_batch_size}, then {@code OUTBOX_RELAY_BATCH_SIZE} (the MicroProfile Config rule).
     */
    public static Function<String, Optional<String>> environment(Map<String, String> env) {
        Objects.requireNonNull(env, "env");
        return key -> {
            String value = env.get(key);
            if (value == null) {
                String underscored = key.replaceAll("[^A-Za-z0-9_]", "_");
                value = env.get(underscored);
                if (value == null) {
                    value = env.get(underscored.toUpperCase(Locale.ROOT));
                }
            }
            return Optional.ofNullable(value);
        };
    }

    /** The environment variable name for a key: {@code outbox.relay.batch-size} gives {@code OUTBOX_RELAY_BATCH_SIZE}. */
    public static String environmentName(String key) {
        return key.replaceAll("[^A-Za-z0-9_]", "_").toUpperCase(Locale.ROOT);
    }

    /** Asks each lookup in turn; the first present value wins. */
    public static Function<String, Optional<String>> firstOf(List<Function<String, Optional<String>>> lookups) {
        List<Function<String, Optional<String>>> copy = List.copyOf(lookups);
        return key -> {
            for (Function<String, Optional<String>> lookup : copy) {
                Optional<String> value = lookup.apply(key);
                if (value != null && value.isPresent()) {
                    return value;
                }
            }
            return Optional.empty();
        };
    }

    /** A fixed map, for tests and for code that builds its settings itself. */
    public static Function<String, Optional<String>> of(Map<String, String> values) {
        Map<String, String> copy = Map.copyOf(values);
        return key -> Optional.ofNullable(copy.get(key));
    }
}
