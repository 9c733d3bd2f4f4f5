package io.eeoutbox.relay.config;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.Function;

/** The values of a group of declared {@link Setting}s as read from a configuration lookup: each as set, or its default. */
public final class SettingValues {

    private final List<Setting<?>> declared;
    private final Map<Setting<?>, Object> values;

    private SettingValues(List<Setting<?>> declared, Map<Setting<?>, Object> values) {
        this.declared = declared;
        this.values = values;
    }

    /** Reads every setting of {@code declared} from {@code lookup}; an unset or blank key keeps its default. */
    public static SettingValues load(List<Setting<?>> declared, Function<String, Optional<String>> lookup) {
        Objects.requireNonNull(lookup, "lookup");
        Map<Setting<?>, Object> values = new IdentityHashMap<>();
        for (Setting<?> s : declared) {
            Optional<String> raw = lookup.apply(s.key());
            if (raw != null && raw.isPresent() && !raw.get().isBlank()) {
                values.put(s, s.parse(raw.get()));
            }
        }
        return new SettingValues(List.copyOf(declared), values);
    }

    /** The value of {@code setting}: as set, else its default. */
    @SuppressWarnings("unchecked")
    public <T> T get(Setting<T> setting) {
        return values.containsKey(setting) ? (T) values.get(setting) : setting.defaultValue();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SettingValues other) || !declared.equals(other.declared)) {
            return false;
        }
        return declared.stream().allMatch(s -> Objects.equals(get(s), other.get(s)));
    }

    @Override
    public int hashCode() {
        return declared.stream().mapToInt(s -> Objects.hashCode(get(s))).sum();
    }

    /** {@code key=value} for every setting, secrets masked. */
    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(", ", "[", "]");
        for (Setting<?> s : declared) {
            j.add(s.key() + "=" + show(s));
        }
        return j.toString();
    }

    private <T> String show(Setting<T> s) {
        return s.show(get(s));
    }
}
