package io.eeoutbox.relay.console;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Tokens against cross-site request forgery: a random nonce and an HMAC of the user's name and that
 * nonce under a key made when the console starts. The page fetches one with {@code GET api/session} (a
 * cross-site page cannot read that answer) and sends it in the {@value #HEADER} header of every POST; the
 * same value also comes back as a {@code SameSite=Strict} cookie, and a POST must carry both, equal, and
 * valid for its user. A restart of the application invalidates all tokens (the page fetches a new one).
 */
final class CsrfTokens {

    static final String HEADER = "X-Outbox-Csrf";
    static final String COOKIE = "outbox-console-csrf";

    private final SecureRandom random = new SecureRandom();
    private final byte[] key = new byte[32];

    CsrfTokens() {
        random.nextBytes(key);
    }

    String issue(String user) {
        byte[] nonce = new byte[16];
        random.nextBytes(nonce);
        String n = Base64.getUrlEncoder().withoutPadding().encodeToString(nonce);
        return n + "." + mac(user, n);
    }

    boolean valid(String user, String header, String cookie) {
        if (user == null || header == null || cookie == null
                || !MessageDigest.isEqual(header.getBytes(StandardCharsets.US_ASCII), cookie.getBytes(StandardCharsets.US_ASCII))) {
            return false;
        }
        int dot = header.indexOf('.');
        if (dot <= 0) {
            return false;
        }
        String expected = mac(user, header.substring(0, dot));
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                header.substring(dot + 1).getBytes(StandardCharsets.US_ASCII));
    }

    private String mac(String user, String nonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] out = mac.doFinal((nonce + "\n" + user).getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
