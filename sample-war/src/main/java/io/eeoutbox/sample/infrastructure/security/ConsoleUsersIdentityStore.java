package io.eeoutbox.sample.infrastructure.security;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import jakarta.security.enterprise.identitystore.Pbkdf2PasswordHash;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Jakarta Security identity store of the sample: checks a user name and password against {@link ConsoleUsers}, read
 * once when the application starts (a malformed value fails the deployment with a message naming the key), with the
 * container's {@link Pbkdf2PasswordHash}. A user's groups become its roles.
 *
 * <p>HTTP Basic sends the password with every request and the console's page makes a few requests every 2 s, while
 * one check of a hash costs ~200 ms of CPU at 600,000 iterations. A successful check is therefore remembered for
 * {@link #REMEMBER}: keyed by an HMAC of name and password under a key made at start, so that neither is kept. A failed
 * check is never remembered, and an unknown name costs a check like a known one.
 */
@ApplicationScoped
public class ConsoleUsersIdentityStore implements IdentityStore {

    static final Duration REMEMBER = Duration.ofMinutes(5);
    private static final int REMEMBERED_MAX = 1000;
    private static final Logger LOG = Logger.getLogger(ConsoleUsersIdentityStore.class.getName());

    @Inject
    Pbkdf2PasswordHash passwordHash;

    private ConsoleUsers users;
    private String unknownUserHash;
    private SecretKeySpec rememberKey;
    private final Map<String, Remembered> remembered = new ConcurrentHashMap<>();

    private record Remembered(Set<String> groups, long untilNanos) {
    }

    @PostConstruct
    void load() {
        String value = ConfigProvider.getConfig().getOptionalValue(ConsoleUsers.KEY, String.class).orElse(null);
        users = ConsoleUsers.parse(value);
        unknownUserHash = HashPassword.hash(new char[] {'-'}, HashPassword.ITERATIONS);
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        rememberKey = new SecretKeySpec(key, "HmacSHA256");
        if (users.size() == 0) {
            LOG.warning(() -> ConsoleUsers.KEY + " is not set: nobody can sign in to the operator console");
        } else {
            LOG.info(() -> "operator console users from " + ConsoleUsers.KEY + ": " + users.names());
        }
    }

    /** Reads the users when the application starts, so that a malformed value fails the deployment. */
    void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        users.size();
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
        if (known != null && known.untilNanos() - System.nanoTime() > 0) {
            return new CredentialValidationResult(name, known.groups());
        }
        Optional<ConsoleUsers.User> user = users.find(name);
        boolean matches = passwordHash.verify(password, user.map(ConsoleUsers.User::passwordHash).orElse(unknownUserHash));
        if (!matches || user.isEmpty()) {
            return CredentialValidationResult.INVALID_RESULT;
        }
        if (remembered.size() >= REMEMBERED_MAX) {
            remembered.clear();
        }
        remembered.put(rememberedAs, new Remembered(user.get().groups(), System.nanoTime() + REMEMBER.toNanos()));
        return new CredentialValidationResult(name, user.get().groups());
    }

    private String rememberedAs(String name, char[] password) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(rememberKey);
            mac.update(name.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            return Base64.getEncoder().encodeToString(mac.doFinal(new String(password).getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
