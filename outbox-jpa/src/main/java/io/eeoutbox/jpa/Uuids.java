package io.eeoutbox.jpa;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Time-ordered event ids (UUID version 7, RFC 9562): 48 bits of Unix milliseconds, then random
 * bits. Consecutive events land next to each other in the primary-key index instead of at random
 * places, which keeps inserts into a busy outbox cheap. The random bits come from the calling
 * thread's generator: event ids must be unique, not unguessable, and a shared {@code SecureRandom}
 * made concurrent producers queue for it.
 */
final class Uuids {

    private Uuids() {
    }

    static UUID v7(long epochMillis) {
        byte[] random = new byte[10];
        ThreadLocalRandom.current().nextBytes(random);
        long msb = (epochMillis & 0xFFFF_FFFF_FFFFL) << 16;
        msb |= 0x7000L;                                             // version 7
        msb |= ((random[0] & 0x0FL) << 8) | (random[1] & 0xFFL);    // 12 random bits
        long lsb = 0;
        for (int i = 2; i < 10; i++) {
            lsb = (lsb << 8) | (random[i] & 0xFFL);
        }
        lsb = (lsb & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L; // IETF variant
        return new UUID(msb, lsb);
    }

    static UUID v7() {
        return v7(System.currentTimeMillis());
    }
}
