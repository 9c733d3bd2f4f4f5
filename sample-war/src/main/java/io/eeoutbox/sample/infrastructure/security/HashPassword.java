package io.eeoutbox.sample.infrastructure.security;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Prints the hash of a password for {@value ConsoleUsers#KEY}, in the encoding Jakarta Security's
 * {@code Pbkdf2PasswordHash} verifies ({@code PBKDF2WithHmacSHA256:<iterations>:<base64 salt>:<base64 hash>}, 32-byte
 * salt and hash). The password is read from the terminal without echo, or from standard input's first line:
 * <pre>java -cp sample-war/target/classes io.eeoutbox.sample.infrastructure.security.HashPassword</pre>
 * Needs the JDK only.
 */
public final class HashPassword {

    /** OWASP's 2023 figure for PBKDF2-HMAC-SHA256. */
    public static final int ITERATIONS = 600_000;
    private static final String ALGORITHM = "PBKDF2WithHmacSHA256";

    private HashPassword() {
    }

    public static void main(String[] args) throws IOException {
        Console console = System.console();
        char[] password;
        if (console != null) {
            password = console.readPassword("password: ");
        } else {
            String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            password = line == null ? new char[0] : line.toCharArray();
        }
        if (password == null || password.length == 0) {
            System.err.println("no password given");
            System.exit(2);
            return;
        }
        System.out.println(hash(password, ITERATIONS));
        Arrays.fill(password, '\0');
    }

    /** PBKDF2WithHmacSHA256, a fresh 32-byte salt, the given iterations, a 32-byte hash. */
    public static String hash(char[] password, int iterations) {
        return hash(password, ALGORITHM, iterations, 32);
    }

    /** A fresh 32-byte salt; the given algorithm (a PBKDF2WithHmacSHA name), iterations and hash length. */
    static String hash(char[] password, String algorithm, int iterations, int hashBytes) {
        byte[] salt = new byte[32];
        new SecureRandom().nextBytes(salt);
        try {
            byte[] hash = SecretKeyFactory.getInstance(algorithm)
                    .generateSecret(new PBEKeySpec(password, salt, iterations, hashBytes * 8)).getEncoded();
            Base64.Encoder b64 = Base64.getEncoder();
            return algorithm + ":" + iterations + ":" + b64.encodeToString(salt) + ":" + b64.encodeToString(hash);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(algorithm + " is not available", e);
        }
    }
}
