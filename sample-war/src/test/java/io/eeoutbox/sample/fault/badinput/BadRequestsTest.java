package io.eeoutbox.sample.fault.badinput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.sample.fault.badinput.BadRequests.BadRequest;
import jakarta.json.Json;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class BadRequestsTest {

    private static final BadRequests.Contract CONTRACT =
            new BadRequests.Contract(100, List.of("PAID", "SHIPPED"), "0b7c1e6e-0d0e-4a53-8a1f-7d7f0c6f2a11");
    /** A valid order (a non-blank customer id of at most 100 characters, a total below 10^12) written by mistake. */
    private static final Pattern VALID_ORDER = Pattern.compile(
            "\\{\"customerId\":\"(?=[^\"]*[^\"\\s])[^\"\\\\\\p{Cntrl}]{1,100}\",\"total\":(0|[1-9]\\d{0,11})(\\.\\d+)?}");

    @Test
    void generatesAtLeastTheCountAskedForInEveryCategory() {
        List<BadRequest> requests = new BadRequests(1, CONTRACT).generate(1000);
        assertTrue(requests.size() >= 1000, "size " + requests.size());
        Set<String> categories = requests.stream().map(BadRequest::category).collect(Collectors.toSet());
        for (String expected : List.of("syntax", "missing", "type", "range", "media", "method", "nesting", "status",
                "sql", "unknown-id", "huge", "truncated", "utf8", "oversized", "surrogate", "malformed-uri")) {
            assertTrue(categories.contains(expected), expected + " missing from " + categories);
        }
    }

    @Test
    void theSameSeedGivesTheSameRequests() {
        List<String> a = new BadRequests(42, CONTRACT).generate(1000).stream().map(BadRequest::toString).toList();
        List<String> b = new BadRequests(42, CONTRACT).generate(1000).stream().map(BadRequest::toString).toList();
        assertTrue(a.equals(b), "the same seed gave different requests");
        List<String> c = new BadRequests(43, CONTRACT).generate(1000).stream().map(BadRequest::toString).toList();
        assertFalse(a.equals(c));
    }

    @Test
    void noCreateRequestIsAValidOrder() {
        for (BadRequest r : new BadRequests(7, CONTRACT).generate(5000)) {
            if (r.method().equals("POST") && r.path().equals("api/orders") && r.body() != null
                    && "application/json".equals(r.contentType())) {
                String body = new String(r.body(), StandardCharsets.UTF_8);
                assertFalse(VALID_ORDER.matcher(body).matches(), "a valid order slipped in: " + r);
            }
        }
    }

    @Test
    void theValidShapeCheckItselfRecognisesAValidOrder() {
        assertTrue(VALID_ORDER.matcher("{\"customerId\":\"c-1\",\"total\":12.50}").matches());
    }

    @Test
    void invalidUtf8BodiesAreRefusedByAStrictDecoder() {
        List<BadRequest> utf8 = new BadRequests(3, CONTRACT).generate(3000).stream()
                .filter(r -> r.category().equals("utf8")).toList();
        assertFalse(utf8.isEmpty());
        for (BadRequest r : utf8) {
            assertThrows(CharacterCodingException.class, () -> StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(r.body())), r.toString());
        }
    }

    @Test
    void theContractsExactAnswersAreNamed() {
        List<BadRequest> requests = new BadRequests(11, CONTRACT).generate(1000);
        List<BadRequest> media = requests.stream().filter(r -> r.category().equals("media")).toList();
        assertFalse(media.isEmpty());
        media.forEach(r -> assertEquals(new BadRequests.Expected(415, "unsupported_media_type", null), r.expected(), r.toString()));
        List<BadRequest> twelveMiB = requests.stream().filter(r -> r.body() != null && r.body().length > 12 * 1024 * 1024)
                .toList();
        assertEquals(1, twelveMiB.size());
        assertEquals(new BadRequests.Expected(413, "too_large", "body"), twelveMiB.get(0).expected());
        List<BadRequest> surrogates = requests.stream().filter(r -> r.category().equals("surrogate")).toList();
        assertFalse(surrogates.isEmpty());
        for (BadRequest r : surrogates) {
            assertEquals(new BadRequests.Expected(400, "invalid_request", "customerId"), r.expected(), r.toString());
            // valid JSON whose customerId holds a surrogate that is not half of a pair
            String customerId = Json.createReader(new StringReader(new String(r.body(), StandardCharsets.UTF_8)))
                    .readObject().getString("customerId");
            assertTrue(hasUnpairedSurrogate(customerId), r.toString());
        }
    }

    private static boolean hasUnpairedSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isHighSurrogate(s.charAt(i)) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void oversizedCustomerIdsExceedTheContractsMaximum() {
        for (BadRequest r : new BadRequests(5, CONTRACT).generate(3000)) {
            if (r.category().equals("oversized")) {
                String body = new String(r.body(), StandardCharsets.UTF_8);
                int start = body.indexOf(":\"") + 2;
                int length = body.indexOf('"', start) - start;
                assertTrue(length > 100, r.toString());
            }
        }
    }
}
