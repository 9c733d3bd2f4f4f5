package io.eeoutbox.sample.infrastructure.security;

import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The sample's users, as the server's configuration lists them in {@value #KEY}: entries separated by white space,
 * each {@code name:groups:hash}, where groups are separated by commas (none: an empty field) and hash is a
 * {@code Pbkdf2PasswordHash} encoding ({@code PBKDF2WithHmacSHA256:<iterations>:<base64 salt>:<base64 hash>}, as
 * {@link HashPassword} prints it). A group gives the role of the same name. No password is ever stored in clear.
 */
public final class ConsoleUsers {

    /** The configuration key (a WildFly system property, an Open Liberty server.xml variable, or any config source). */
    public static final String KEY = "sample.console.users";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@-]{1,64}");
    private static final Pattern HASH = Pattern.compile("PBKDF2WithHmacSHA(224|256|384|512):[0-9]{1,9}:[A-Za-z0-9+/]+=*:[A-Za-z0-9+/]+=*");
    /** Pbkdf2PasswordHash's minimum; the maximum keeps one check under ~2 s here (0.33 us an iteration). */
    static final int MIN_ITERATIONS = 1024;
    static final int MAX_ITERATIONS = 5_000_000;
    /** Pbkdf2PasswordHash's minimums for salt and hash. */
    static final int MIN_BYTES = 16;

    /**
     * A user: its groups and its password hash, with the hash's algorithm (e.g. PBKDF2WithHmacSHA256), iterations and
     * length in bytes as read from it once at start.
     */
    public record User(String name, Set<String> groups, String passwordHash, String algorithm, int iterations,
            int hashBytes) {
    }

    private final Map<String, User> users;

    private ConsoleUsers(Map<String, User> users) {
        this.users = users;
    }

    public Optional<User> find(String name) {
        return Optional.ofNullable(users.get(name));
    }

    public int size() {
        return users.size();
    }

    /**
     * Reads the setting's value; absent or blank gives no users (nobody can sign in). Throws
     * {@link IllegalArgumentException} naming the key, the entry's position and what is wrong with it, never the
     * entry itself (it holds a hash).
     */
    public static ConsoleUsers parse(String value) {
        Map<String, User> users = new LinkedHashMap<>();
        if (value == null || value.isBlank()) {
            return new ConsoleUsers(Map.of());
        }
        String[] entries = value.trim().split("\\s+");
        for (int i = 0; i < entries.length; i++) {
            String[] parts = entries[i].split(":", 3);
            String where = "invalid configuration: " + KEY + ", entry " + (i + 1) + " of " + entries.length + ": ";
            if (parts.length < 3) {
                throw new IllegalArgumentException(where + "expected name:groups:hash");
            }
            if (!NAME.matcher(parts[0]).matches()) {
                throw new IllegalArgumentException(where + "the name must be 1 to 64 letters, digits, '.', '_', '@' or '-'");
            }
            Set<String> groups = new LinkedHashSet<>();
            for (String group : parts[1].isEmpty() ? new String[0] : parts[1].split(",")) {
                if (!NAME.matcher(group).matches()) {
                    throw new IllegalArgumentException(where + "a group must be 1 to 64 letters, digits, '.', '_', '@' or '-'");
                }
                groups.add(group);
            }
            User user = user(parts[0], Collections.unmodifiableSet(groups), parts[2], where);
            if (users.putIfAbsent(user.name(), user) != null) {
                throw new IllegalArgumentException(where + "the user " + parts[0] + " is listed twice");
            }
        }
        return new ConsoleUsers(Collections.unmodifiableMap(users));
    }

    /** The user, once its hash is checked to be one the container's Pbkdf2PasswordHash accepts. */
    private static User user(String name, Set<String> groups, String hash, String where) {
        if (!HASH.matcher(hash).matches()) {
            throw new IllegalArgumentException(where
                    + "the hash must be PBKDF2WithHmacSHA<224|256|384|512>:<iterations>:<base64 salt>:<base64 hash>"
                    + " (print one with io.eeoutbox.sample.infrastructure.security.HashPassword)");
        }
        String[] fields = hash.split(":");
        int iterations = Integer.parseInt(fields[1]);
        if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
            throw new IllegalArgumentException(where + "the hash's iterations must be from " + MIN_ITERATIONS + " to "
                    + MAX_ITERATIONS + ", was " + iterations);
        }
        int hashBytes = 0;
        for (int i = 2; i <= 3; i++) {
            String field = i == 2 ? "salt" : "hash";
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(fields[i]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + "the hash's " + field + " is not valid base64");
            }
            if (bytes.length < MIN_BYTES) {
                throw new IllegalArgumentException(where + "the hash's " + field + " must be at least " + MIN_BYTES
                        + " bytes, was " + bytes.length);
            }
            hashBytes = bytes.length;
        }
        return new User(name, groups, hash, fields[0], iterations, hashBytes);
    }

    /** The user whose check costs most (most iterations), for an unknown name's check to cost as much. */
    Optional<User> costliest() {
        return users.values().stream().max(java.util.Comparator.comparingInt(User::iterations));
    }

    /** The users' names, for a log line. */
    public List<String> names() {
        return new ArrayList<>(users.keySet());
    }
}
