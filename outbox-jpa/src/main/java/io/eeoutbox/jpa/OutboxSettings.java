package io.eeoutbox.jpa;

import java.lang.reflect.Method;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads ee-outbox configuration keys: MicroProfile Config when the server has it, otherwise
 * system properties, then environment variables ({@code outbox.payload.max-bytes} is read from
 * {@code OUTBOX_PAYLOAD_MAX_BYTES}). MicroProfile Config is looked up reflectively so ee-outbox
 * runs on servers without it.
 */
public final class OutboxSettings {

    private OutboxSettings() {
    }

    /** The lookup described above. */
    public static Function<String, Optional<String>> lookup() {
        Function<String, Optional<String>> mp = microProfileConfig();
        return key -> {
            if (mp != null) {
                Optional<String> value = mp.apply(key);
                if (value.isPresent()) {
                    return value;
                }
            }
            String value = System.getProperty(key);
            if (value == null) {
                value = System.getenv(environmentName(key));
            }
            return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
        };
    }

    /** {@code outbox.relay.batch-size} → {@code OUTBOX_RELAY_BATCH_SIZE}, as MicroProfile Config maps them. */
    public static String environmentName(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    @SuppressWarnings("unchecked")
    private static Function<String, Optional<String>> microProfileConfig() {
        try {
            ClassLoader cl = Thread.currentThread().getContextClassLoader();
            Class<?> provider = Class.forName("org.eclipse.microprofile.config.ConfigProvider", true,
                    cl != null ? cl : OutboxSettings.class.getClassLoader());
            Object config = provider.getMethod("getConfig").invoke(null);
            Method getOptional = config.getClass().getMethod("getOptionalValue", String.class, Class.class);
            getOptional.setAccessible(true);
            return key -> {
                try {
                    return ((Optional<String>) getOptional.invoke(config, key, String.class))
                            .filter(v -> !v.isBlank()).map(String::trim);
                } catch (ReflectiveOperationException e) {
                    return Optional.empty();
                }
            };
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }
}
