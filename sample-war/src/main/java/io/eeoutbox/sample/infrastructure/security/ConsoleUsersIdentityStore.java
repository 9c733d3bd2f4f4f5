package io.eeoutbox.sample.infrastructure.security;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import jakarta.security.enterprise.identitystore.Pbkdf2PasswordHash;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Jakarta Security identity store of the sample: checks a user name and password against {@link ConsoleUsers}, read
 * once when the application starts (a malformed value fails the start with a message naming the key), with the
 * container's {@link Pbkdf2PasswordHash}. A user's groups become its roles.
 *
 * <p>Cost. HTTP Basic sends the password with every request and the console's page makes a few requests every 2 s,
 * while one check of a hash costs ~200 ms of CPU at 600,000 iterations. So:
 * <ul>
 *   <li>a successful check is remembered for {@link #REMEMBER}, keyed by an HMAC of name and password under a key made
 *       at start (neither is kept); a failed one never is;</li>
 *   <li>at most {@link #CHECKS_AT_ONCE} checks run at a time: the mechanism checks any {@code Authorization: Basic}
 *       header, on open paths too, so a flood of made-up credentials would otherwise take every CPU. A request that
 *       finds no free slot within {@link #CHECK_WAIT} is refused (401) and logged;</li>
 *   <li>an unknown name costs a check like the costliest configured user's, so that the time does not tell which
 *       names exist.</li>
 * </ul>
 */
@ApplicationScoped
public class ConsoleUsersIdentityStore implements IdentityStore {

    static final Duration REMEMBER = Duration.ofMinutes(5);
    static final int CHECKS_AT_ONCE = 2;
    static final Duration CHECK_WAIT = Duration.ofSeconds(2);
    private static final int REMEMBERED_MAX = 1000;
    private static final Logger LOG = Logger.getLogger(ConsoleUsersIdentityStore.class.getName());

    @Inject
    Pbkdf2PasswordHash passwordHash;

    private ConsoleUsers users;
    private String unknownUserHash;
    private SecretKeySpec rememberKey;
    private final Map<String, Remembered> remembered = new ConcurrentHashMap<>();
    private final Semaphore checks = new Semaphore(CHECKS_AT_ONCE);

    private record Remembered(String name, Set<String> groups, long untilNanos) {
    }

    @PostConstruct
    void load() {
        String value = ConfigProvider.getConfig().getOptionalValue(ConsoleUsers.KEY, String.class).orElse(null);
        users = ConsoleUsers.parse(value);
        unknownUserHash = users.costliest()
                .map(u -> HashPassword.hash(new char[] {'-'}, u.algorithm(), u.iterations(), u.hashBytes()))
                .orElseGet(() -> HashPassword.hash(new char[] {'-'}, HashPassword.ITERATIONS));
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        rememberKey = new SecretKeySpec(key, "HmacSHA256");
        if (users.size() == 0) {
            LOG.warning(() -> ConsoleUsers.KEY + " is not set: nobody can sign in to the operator console");
        } else {
            LOG.info(() -> "operator console users from " + ConsoleUsers.KEY + ": " + users.names());
        }
    }

    /** Reads the users when the application starts (the observer makes the bean), so that a malformed value fails it. */
    void onStart(@Observes Startup started) {
        LOG.fine(() -> "operator console users read: " + users.size());
    }

    @Override
    public CredentialValidationResult validate(Credential credential) {
        if (!(credential instanceof UsernamePasswordCredential given)) {
            return CredentialValidationResult.NOT_VALIDATED_RESULT;
        }
        String name = given.getCaller();
        char[] password = given.getPassword().getValue();
        String rememberedAs = rememberedAs(name, password);
        Remembered known = remembered.get(rememberedAs);
        if (known != null) {
            if (known.untilNanos() - System.nanoTime() > 0) {
                return new CredentialValidationResult(known.name(), known.groups());
            }
            remembered.remove(rememberedAs, known);
        }
        Optional<ConsoleUsers.User> user = users.find(name);
        boolean matches;
        try {
            if (!checks.tryAcquire(CHECK_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warning(() -> "sign-in refused without a check: " + CHECKS_AT_ONCE + " checks already running for "
                        + CHECK_WAIT.toSeconds() + " s (many requests with made-up credentials?)");
                return CredentialValidationResult.INVALID_RESULT;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CredentialValidationResult.INVALID_RESULT;
        }
        try {
            matches = passwordHash.verify(password, user.map(ConsoleUsers.User::passwordHash).orElse(unknownUserHash));
        } finally {
            checks.release();
        }
        if (!matches || user.isEmpty()) {
            return CredentialValidationResult.INVALID_RESULT;
        }
        if (remembered.size() >= REMEMBERED_MAX) {
            remembered.values().removeIf(r -> r.untilNanos() - System.nanoTime() <= 0);
            if (remembered.size() >= REMEMBERED_MAX) {
                remembered.clear();
            }
        }
        ConsoleUsers.User u = user.get();
        remembered.put(rememberedAs, new Remembered(u.name(), u.groups(), System.nanoTime() + REMEMBER.toNanos()));
        return new CredentialValidationResult(u.name(), u.groups());
    }

    /** HMAC of the name's length, the name and the password (UTF-8), so that no two pairs share a key. */
    private String rememberedAs(String name, char[] password) {
        ByteBuffer secret = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(rememberKey);
            byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
            mac.update(ByteBuffer.allocate(4).putInt(nameBytes.length).array());
            mac.update(nameBytes);
            mac.update(secret.duplicate());
            return Base64.getEncoder().encodeToString(mac.doFinal());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        } finally {
            if (secret.hasArray()) {
                Arrays.fill(secret.array(), (byte) 0);
            }
        }
    }
}
