package io.eeoutbox.sample.infrastructure.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import java.util.Set;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConsoleUsersTest {

    private static final String HASH = HashPassword.hash("secret-1".toCharArray(), 1024);

    @Test
    void readsNamesGroupsAndHashes() {
        ConsoleUsers users = ConsoleUsers.parse("  alice:outbox-admin,ops:" + HASH + "\n bob::" + HASH + " ");
        assertEquals(2, users.size());
        assertEquals(Set.of("outbox-admin", "ops"), users.find("alice").orElseThrow().groups());
        assertEquals(Set.of(), users.find("bob").orElseThrow().groups());
        assertEquals(HASH, users.find("bob").orElseThrow().passwordHash());
        assertTrue(users.find("carol").isEmpty());
    }

    @Test
    void theCostliestUserSetsWhatAnUnknownNameCosts() {
        String dear = HashPassword.hash("x".toCharArray(), "PBKDF2WithHmacSHA512", 4096, 64);
        ConsoleUsers users = ConsoleUsers.parse("alice::" + HASH + " bob::" + dear);
        ConsoleUsers.User costliest = users.costliest().orElseThrow();
        assertEquals("bob", costliest.name());
        assertEquals("PBKDF2WithHmacSHA512", costliest.algorithm());
        assertEquals(4096, costliest.iterations());
        assertEquals(64, costliest.hashBytes());
    }

    @Test
    void nothingSetMeansNobody() {
        assertEquals(0, ConsoleUsers.parse(null).size());
        assertEquals(0, ConsoleUsers.parse("  ").size());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "alice|entry 1 of 1: expected name:groups:hash",
        "alice:outbox-admin|entry 1 of 1: expected name:groups:hash",
        "al ice:g:HASH|entry 1 of 2: expected name:groups:hash",
        "al/ice:g:HASH|entry 1 of 1: the name must be",
        "alice:g h:HASH|entry 1 of 2: expected name:groups:hash",
        "alice:g/h:HASH|entry 1 of 1: a group must be",
        "alice:g:secret-1|entry 1 of 1: the hash must be PBKDF2WithHmacSHA",
        "alice:g:MD5:1024:c2FsdA==:aGFzaA==|entry 1 of 1: the hash must be PBKDF2WithHmacSHA",
        "alice:g:HASH bob:g:HASH alice::HASH|entry 3 of 3: the user alice is listed twice",
        "alice:g:PBKDF2WithHmacSHA256:0:SALT:HASHPART|entry 1 of 1: the hash's iterations must be from 1024 to 5000000, was 0",
        "alice:g:PBKDF2WithHmacSHA256:1023:SALT:HASHPART|the hash's iterations must be from 1024 to 5000000, was 1023",
        "alice:g:PBKDF2WithHmacSHA256:5000001:SALT:HASHPART|the hash's iterations must be from 1024 to 5000000, was 5000001",
        "alice:g:PBKDF2WithHmacSHA256:2048:A:HASHPART|the hash's salt is not valid base64",
        "alice:g:PBKDF2WithHmacSHA256:2048:c2FsdA==:HASHPART|the hash's salt must be at least 16 bytes, was 4",
        "alice:g:PBKDF2WithHmacSHA256:2048:SALT:aGFzaA==|the hash's hash must be at least 16 bytes, was 4",
    })
    void refusesMalformedEntriesNamingTheKeyAndTheEntryButNotTheHash(String value, String expected) {
        String message = assertThrows(IllegalArgumentException.class, () -> ConsoleUsers.parse(value
                .replace("HASHPART", HASH.split(":")[3]).replace("SALT", HASH.split(":")[2]).replace("HASH", HASH)))
                .getMessage();
        assertTrue(message.startsWith("invalid configuration: sample.console.users, "), message);
        assertTrue(message.contains(expected), message);
        assertFalse(message.contains(HASH.substring(HASH.lastIndexOf(':') + 1)), message);
    }

    @Test
    void hashPasswordWritesWhatPbkdf2PasswordHashReads() throws Exception {
        String[] parts = HashPassword.hash("outbox-viewer-1".toCharArray(), 2048).split(":");
        assertEquals("PBKDF2WithHmacSHA256", parts[0]);
        assertEquals("2048", parts[1]);
        byte[] salt = Base64.getDecoder().decode(parts[2]);
        byte[] hash = Base64.getDecoder().decode(parts[3]);
        assertEquals(32, salt.length);
        byte[] again = SecretKeyFactory.getInstance(parts[0])
                .generateSecret(new PBEKeySpec("outbox-viewer-1".toCharArray(), salt, 2048, hash.length * 8)).getEncoded();
        assertEquals(Base64.getEncoder().encodeToString(hash), Base64.getEncoder().encodeToString(again));
        assertFalse(HashPassword.hash("outbox-viewer-1".toCharArray(), 2048).equals(String.join(":", parts)), "a fresh salt each time");
    }
}
