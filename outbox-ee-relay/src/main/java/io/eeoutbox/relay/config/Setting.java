package io.eeoutbox.relay.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * One configuration key, declared once: its name, type, default, the values it accepts and a one-line
 * description. Loading, validation, error messages, {@link RelayConfig#toString()} and the README's
 * configuration table all come from these declarations ({@link RelaySettings}, and the EE resource names
 * in {@code io.eeoutbox.relay.ee.ResourceNames}).
 *
 * @param <T> the value's type
 */
public final class Setting<T> {

    private final String key;
    private final String description;
    private final T defaultValue;
    private final String documentedDefault;
    private final Form<T> form;
    private final Shown shown;

    /** How a value is shown in logs, errors and the console. */
    private enum Shown {
        AS_WRITTEN,
        /** A URL whose query may carry credentials (pgjdbc's {@code ?password=}): shown without it. */
        WITHOUT_QUERY,
        MASKED
    }

    /** How a value of a setting is written, read and checked; {@code allowed} is the text errors and docs show. */
    record Form<T>(Function<String, T> parse, Predicate<T> accepts, String allowed, Function<T, String> format) {
    }

    private Setting(String key, String description, T defaultValue, String documentedDefault, Form<T> form,
                    Shown shown) {
        this.key = key;
        this.description = description;
        this.defaultValue = defaultValue;
        this.documentedDefault = documentedDefault;
        this.form = form;
        this.shown = shown;
    }

    private static <T> Setting<T> of(String key, T defaultValue, Form<T> form, String description) {
        return new Setting<>(key, description, defaultValue,
                defaultValue == null ? "(none)" : form.format().apply(defaultValue), form, Shown.AS_WRITTEN);
    }

    // --- kinds -----------------------------------------------------------------------------------

    public static Setting<Integer> integer(String key, int defaultValue, int min, int max, String description) {
        return of(key, defaultValue, new Form<>(text -> {
            try {
                return Integer.parseInt(text);
            } catch (NumberFormatException e) {
                return null;
            }
        }, v -> v != null && v >= min && v <= max, "a whole number from " + min + " to " + max, String::valueOf),
                description);
    }

    public static Setting<Double> decimal(String key, double defaultValue, double min, double max, String description) {
        return of(key, defaultValue, new Form<>(text -> {
            try {
                return Double.parseDouble(text);
            } catch (NumberFormatException e) {
                return null;
            }
        }, v -> v != null && v >= min && v <= max, "a decimal number from " + min + " to " + max, String::valueOf),
                description);
    }

    public static Setting<Duration> duration(String key, Duration defaultValue, Duration min, Duration max, String description) {
        return of(key, defaultValue, new Form<>(text -> {
            try {
                return Duration.parse(text);
            } catch (DateTimeParseException e) {
                return null;
            }
        }, v -> v != null && v.compareTo(min) >= 0 && v.compareTo(max) <= 0,
                "an ISO-8601 duration from " + iso(min) + " to " + iso(max), Setting::iso), description);
    }

    public static Setting<Boolean> flag(String key, boolean defaultValue, String description) {
        return of(key, defaultValue, new Form<>(text -> switch (text.toLowerCase(Locale.ROOT)) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> null;
        }, Objects::nonNull, "true or false", String::valueOf), description);
    }

    /** Text matching {@code pattern}; {@code allowed} says in words what that is. */
    public static Setting<String> text(String key, String defaultValue, Pattern pattern, String allowed,
                                       String description) {
        return of(key, defaultValue, new Form<>(Function.identity(),
                v -> v != null && pattern.matcher(v).matches(), allowed, Function.identity()), description);
    }

    /**
     * Names, each with a duration: {@code name=ISO-8601,name=ISO-8601} (none by default). A name is 1 to
     * {@code maxName} characters, without {@code =} or {@code ,}, and appears once; each duration lies in [min, max].
     */
    public static Setting<Map<String, Duration>> durationsByName(String key, int maxName, Duration min, Duration max,
                                                                 String description) {
        String allowed = "name=duration pairs separated by commas, a name of 1 to " + maxName + " characters without"
                + " '=' or ',' and given once, each duration ISO-8601 from " + iso(min) + " to " + iso(max);
        Function<String, Map<String, Duration>> parse = text -> {
            Map<String, Duration> out = new java.util.LinkedHashMap<>();
            if (text.isEmpty()) {
                return out;
            }
            for (String pair : text.split(",", -1)) {
                int eq = pair.indexOf('=');
                String name = eq < 0 ? "" : pair.substring(0, eq).trim();
                Duration d;
                try {
                    d = eq < 0 ? null : Duration.parse(pair.substring(eq + 1).trim());
                } catch (DateTimeParseException e) {
                    d = null;
                }
                if (d == null || name.isEmpty() || name.length() > maxName || out.put(name, d) != null) {
                    return null;
                }
            }
            return out;
        };
        return of(key, Map.of(), new Form<>(parse, v -> v != null && v.keySet().stream().allMatch(n -> !n.isEmpty()
                && n.length() <= maxName && n.indexOf('=') < 0 && n.indexOf(',') < 0)
                && v.values().stream().allMatch(d -> d != null && d.compareTo(min) >= 0 && d.compareTo(max) <= 0),
                allowed, v -> v.isEmpty() ? "(none)" : String.join(",", v.entrySet().stream()
                        .map(e -> e.getKey() + "=" + iso(e.getValue())).toList())), description);
    }

    /** One of a fixed set of words, each standing for a value. */
    public static <E> Setting<E> choice(String key, E defaultValue, Map<String, E> words, String description) {
        Map<String, E> byWord = Map.copyOf(words);
        Function<E, String> format = v -> byWord.entrySet().stream().filter(e -> e.getValue().equals(v))
                .map(Map.Entry::getKey).findFirst().orElse(String.valueOf(v));
        return of(key, defaultValue, new Form<>(text -> byWord.get(text.toLowerCase(Locale.ROOT)), byWord::containsValue,
                inWords(words.keySet()), format), description);
    }

    private static String inWords(java.util.Collection<String> words) {
        java.util.List<String> list = java.util.List.copyOf(words);
        return list.size() == 1 ? list.get(0)
                : String.join(", ", list.subList(0, list.size() - 1)) + " or " + list.get(list.size() - 1);
    }

    /** A duration as a user writes it: whole days as {@code P7D}, anything else as {@link Duration#toString()}. */
    static String iso(Duration d) {
        return !d.isZero() && d.toSeconds() % 86_400 == 0 && d.getNano() == 0 ? "P" + d.toDays() + "D" : d.toString();
    }

    /** One of a fixed list of words, the value being the word itself (lower case). */
    public static Setting<String> word(String key, String defaultValue, java.util.List<String> words, String description) {
        Map<String, String> ordered = new java.util.LinkedHashMap<>();
        words.forEach(w -> ordered.put(w, w));
        return choice(key, defaultValue, ordered, description);
    }

    /** The same setting, its value never shown in logs or by {@link RelayConfig#toString()}. */
    Setting<T> secret() {
        return new Setting<>(key, description, defaultValue, documentedDefault, form, Shown.MASKED);
    }

    /** The same setting, a URL shown without its query (which may carry a password) in logs, errors and the console. */
    Setting<T> queryHidden() {
        return new Setting<>(key, description, defaultValue, documentedDefault, form, Shown.WITHOUT_QUERY);
    }

    /** The same setting, with its default described in words (a computed or context-dependent default). */
    Setting<T> documentedDefault(String text) {
        return new Setting<>(key, description, defaultValue, text, form, shown);
    }

    // --- use -------------------------------------------------------------------------------------

    public String key() {
        return key;
    }

    public String description() {
        return description;
    }

    /** The default, or null when the setting is unset by default. */
    public T defaultValue() {
        return defaultValue;
    }

    /** The default as the documentation shows it. */
    public String documentedDefault() {
        return documentedDefault;
    }

    /** The accepted values, in words. */
    public String allowed() {
        return form.allowed();
    }

    public boolean isSecret() {
        return shown == Shown.MASKED;
    }

    /** Reads a value written as text; throws naming the key, the text and what is allowed. */
    public T parse(String text) {
        boolean secret = isSecret();
        String trimmed = secret ? text : text.trim();
        T value = form.parse().apply(trimmed);
        if (value == null || !form.accepts().test(value)) {
            throw invalid(secret ? "****" : hideQuery(trimmed));
        }
        return value;
    }

    /** Checks a value set in code; throws naming the key, the value and what is allowed. */
    public T check(T value) {
        if (value == null || !form.accepts().test(value)) {
            throw invalid(isSecret() || value == null ? String.valueOf(value == null ? null : "****") : hideQuery(format(value)));
        }
        return value;
    }

    /** The value as a user would write it; {@code ****} for a secret, a URL's query as {@code ?****}. */
    public String show(T value) {
        if (value == null) {
            return "(unset)";
        }
        return isSecret() ? "****" : hideQuery(format(value));
    }

    private String hideQuery(String text) {
        int q = shown == Shown.WITHOUT_QUERY ? text.indexOf('?') : -1;
        return q < 0 ? text : text.substring(0, q) + "?****";
    }

    private String format(T value) {
        return form.format().apply(value);
    }

    /** An error naming this key, the value and what is allowed. */
    public IllegalArgumentException invalid(Object value) {
        return invalid(key, value, form.allowed());
    }

    static IllegalArgumentException invalid(String key, Object value, String allowed) {
        return new IllegalArgumentException("invalid configuration: " + key + "=" + value + " (allowed: " + allowed + ")");
    }

    @Override
    public String toString() {
        return key;
    }
}
