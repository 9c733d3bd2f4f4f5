package io.eeoutbox.relay.console;

import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The console's configuration: {@code outbox.console.enabled} ({@code false} by default) and
 * {@code outbox.console.path} ({@value #DEFAULT_PATH} by default), read where the relay reads its own
 * settings. An invalid value fails the deployment with a message naming the key, the value and what is
 * allowed.
 *
 * @param enabled whether the application serves the console
 * @param path    the path within the application, starting and ending with {@code /}
 */
public record ConsoleSettings(boolean enabled, String path) {

    public static final String ENABLED = "outbox.console.enabled";
    public static final String PATH = "outbox.console.path";
    public static final String DEFAULT_PATH = "/outbox-admin/";

    private static final Pattern SEGMENTS = Pattern.compile("(/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+/");

    public static ConsoleSettings load(Function<String, Optional<String>> lookup) {
        boolean enabled = lookup.apply(ENABLED).map(String::strip).map(v -> bool(ENABLED, v)).orElse(false);
        String path = lookup.apply(PATH).map(String::strip).filter(v -> !v.isEmpty()).map(ConsoleSettings::path)
                .orElse(DEFAULT_PATH);
        return new ConsoleSettings(enabled, path);
    }

    static boolean bool(String key, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("invalid configuration: " + key + "=" + value
                    + " (allowed: true or false)");
        };
    }

    /** A path of one or more segments of letters, digits and {@code . _ ~ -}; a missing trailing slash is added. */
    static String path(String value) {
        String p = value.endsWith("/") ? value : value + "/";
        if (!SEGMENTS.matcher(p).matches() || p.contains("/./") || p.contains("/../") || p.contains("//")) {
            throw new IllegalArgumentException("invalid configuration: " + PATH + "=" + value
                    + " (allowed: a path such as " + DEFAULT_PATH + ": segments of letters, digits, '.', '_', '~' and '-',"
                    + " starting with '/', not the application's root, no '.' or '..' segments)");
        }
        return p;
    }
}
