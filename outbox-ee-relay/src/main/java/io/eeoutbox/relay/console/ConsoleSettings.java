package io.eeoutbox.relay.console;

import io.eeoutbox.relay.config.Setting;
import io.eeoutbox.relay.config.SettingValues;
import java.util.List;
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

    public static final String DEFAULT_PATH = "/outbox-admin/";

    public static final Setting<Boolean> ENABLED_SETTING = Setting.flag("outbox.console.enabled", false,
            "serve the operator console in this application");
    public static final Setting<String> PATH_SETTING = Setting.text("outbox.console.path", DEFAULT_PATH,
            Pattern.compile("(/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+/?"), "a path such as " + DEFAULT_PATH + ": segments of"
                    + " letters, digits, '.', '_', '~' and '-', starting with '/', not the application's root, no '.' or"
                    + " '..' segments", "where the console is served, within the application");
    /** The console's settings, in the order docs/console.md lists them. */
    public static final List<Setting<?>> ALL = List.of(ENABLED_SETTING, PATH_SETTING);

    public static final String ENABLED = ENABLED_SETTING.key();
    public static final String PATH = PATH_SETTING.key();

    public static ConsoleSettings load(Function<String, Optional<String>> lookup) {
        SettingValues values = SettingValues.load(ALL, lookup);
        return new ConsoleSettings(values.get(ENABLED_SETTING), withSlash(values.get(PATH_SETTING)));
    }

    /** A path as configured (checked by its declaration), with the trailing slash added when it is missing. */
    static String path(String value) {
        return withSlash(PATH_SETTING.parse(value));
    }

    private static String withSlash(String p) {
        return p.endsWith("/") ? p : p + "/";
    }
}
