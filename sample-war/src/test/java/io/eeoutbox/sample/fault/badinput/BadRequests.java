package io.eeoutbox.sample.fault.badinput;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;

/**
 * Generates malformed requests against the sample's API, each of which must be refused with a 4xx
 * and write nothing: invalid JSON (truncated, broken syntax, deep nesting), invalid UTF-8, wrong JSON
 * types, missing and blank fields, oversized fields and bodies, SQL-looking strings where they are
 * not valid values, unknown and malformed ids, wrong media types and methods.
 *
 * <p>Only requests that are invalid under the sample's contract (issue 4: a customer is required, the
 * total is a non-negative number, the status is one of the known ones, unknown orders are 404) are
 * generated: nothing a lenient but correct server may accept, such as a number given as a string.
 * The same seed gives the same requests.
 */
public final class BadRequests {

    /**
     * One request: what it is, how it is sent. {@code body} null: no body. {@code expected}: the exact answer the
     * sample's contract names for it, or null where any 4xx with the JSON error will do.
     */
    public record BadRequest(String category, String method, String path, String contentType, byte[] body,
                             String description, Expected expected) {

        public BadRequest {
            Objects.requireNonNull(category);
            Objects.requireNonNull(method);
            Objects.requireNonNull(path);
        }

        public BadRequest(String category, String method, String path, String contentType, byte[] body,
                          String description) {
            this(category, method, path, contentType, body, description, null);
        }

        BadRequest expecting(int status, String error, String field) {
            return new BadRequest(category, method, path, contentType, body, description, new Expected(status, error, field));
        }

        @Override
        public String toString() {
            String shown = body == null ? "" : body.length > 120
                    ? new String(body, 0, 120, StandardCharsets.ISO_8859_1) + "...(" + body.length + " bytes)"
                    : new String(body, StandardCharsets.ISO_8859_1);
            return category + ": " + method + " " + path + (contentType == null ? "" : " [" + contentType + "]")
                    + " " + shown.replaceAll("\\p{Cntrl}", "?") + " (" + description + ")";
        }
    }

    /** The answer's status and JSON error ({@code {"error":...,"field":...}}; {@code field} null: none named). */
    public record Expected(int status, String error, String field) {
    }

    /** What the sample accepts, as far as the generator needs it. */
    public record Contract(int customerIdMaxLength, List<String> statuses, String existingOrderId) {
    }

    static final String JSON = "application/json";
    /** The category of requests the server refuses before the application: any 4xx, in the server's own format. */
    public static final String MALFORMED_URI = "malformed-uri";
    private static final String ORDERS = "api/orders";
    private static final List<String> SQL = List.of(
            "' OR '1'='1", "1; DROP TABLE orders; --", "'); DELETE FROM outbox_events; --",
            "\" OR \"\"=\"", "1 UNION SELECT id FROM outbox_events", "$$; TRUNCATE processed_events; $$",
            "%27%20OR%201%3D1", "admin'--", "1' AND pg_sleep(5)--", "0x27; SELECT pg_terminate_backend(pg_backend_pid())");

    private final Random random;
    private final Contract contract;

    public BadRequests(long seed, Contract contract) {
        this.random = new Random(seed);
        this.contract = contract;
    }

    /** At least {@code count} requests: every fixed case once, then generated variants, in a shuffled order. */
    public List<BadRequest> generate(int count) {
        List<BadRequest> all = new ArrayList<>();
        fixedCases(all);
        while (all.size() < count) {
            switch (random.nextInt(7)) {
                case 0 -> all.add(truncatedCreate());
                case 1 -> all.add(brokenSyntaxCreate());
                case 2 -> all.add(invalidUtf8Create());
                case 3 -> all.add(wrongTypeCreate());
                case 4 -> all.add(unknownId());
                case 5 -> all.add(sqlInPlaceOfAValue());
                default -> all.add(oversizedCreate());
            }
        }
        Collections.shuffle(all, random);
        return all;
    }

    // --- fixed cases ------------------------------------------------------------------------

    private void fixedCases(List<BadRequest> out) {
        // not JSON at all, or not an object
        for (String body : List.of("", " ", "null", "[]", "[{}]", "\"order\"", "42", "true", "{", "}", "{}",
                "{\"customerId\":\"c\",\"total\":1", "{\"customerId\":\"c\" \"total\":1}",
                "{'customerId':'c','total':1}", "{customerId:\"c\",total:1}", "{\"customerId\":\"c\",\"total\":1,}",
                "{\"customerId\":\"c\",\"total\":NaN}", "{\"customerId\":\"c\",\"total\":Infinity}",
                "{\"customerId\":\"c\",\"total\":-Infinity}", "{\"customerId\":\"c\",\"total\":0x10}",
                "{\"customerId\":\"c\",\"total\":1}/*x*/", "{\"customerId\":\"c\",\"total\":1}{}",
                "{\"customerId\":\"c\",\"total\":01.5}", "{\"customerId\":\"c\",\"total\":1.}",
                "{\"customerId\":\"c\",\"total\":.5}", "{\"customerId\":\"c\",\"total\":+1}",
                "{\"customerId\":\"c\",\"total\":1e}", "{\"customerId\":\"\\x41\",\"total\":1}",
                "{\"customerId\":\"\\u12\",\"total\":1}", "{\"customerId\":\"line\nbreak\",\"total\":1}",
                "{\"customerId\":\"tab\there\",\"total\":1}", "<order><customerId>c</customerId></order>",
                "customerId=c&total=1")) {
            out.add(create("syntax", body, "not a JSON order object"));
        }
        // missing, null and blank fields
        for (String body : List.of("{\"total\":12.5}", "{\"customerId\":\"c-1\"}", "{\"customerId\":null,\"total\":1}",
                "{\"customerId\":\"c-1\",\"total\":null}", "{\"customerId\":\"\",\"total\":1}",
                "{\"customerId\":\"   \",\"total\":1}", "{\"customerId\":\"\\t\\n\",\"total\":1}",
                "{\"customer\":\"c-1\",\"amount\":1}", "{\"CUSTOMERID\":\"c-1\",\"TOTAL\":1}")) {
            out.add(create("missing", body, "a required field missing, null or blank"));
        }
        // a customer id that is half a character: a lone UTF-16 surrogate, escaped (valid JSON, not Unicode text)
        for (String lone : List.of("\\ud800", "c-\\udfff", "\\udc00\\ud83d", "c-\\ud83d")) {
            out.add(create("surrogate", "{\"customerId\":\"" + lone + "\",\"total\":1}", "an unpaired surrogate")
                    .expecting(400, "invalid_request", "customerId"));
        }
        // wrong types
        for (String total : List.of("\"abc\"", "\"\"", "true", "false", "[]", "[1]", "{}", "{\"value\":1}",
                "\"12,50\"", "\"1e9999x\"")) {
            out.add(create("type", "{\"customerId\":\"c-1\",\"total\":" + total + "}", "total not a number"));
        }
        for (String customer : List.of("[]", "[\"c\"]", "{}", "{\"id\":\"c\"}")) {
            out.add(create("type", "{\"customerId\":" + customer + ",\"total\":1}", "customerId not a string"));
        }
        // negative totals and absurd numbers
        for (String total : List.of("-1", "-0.01", "-12.50", "-1e3", "1e400", "-1e400", "1e1000000",
                "123456789012345678901234567890.5")) {
            out.add(create("range", "{\"customerId\":\"c-1\",\"total\":" + total + "}", "total out of range"));
        }
        // wrong media types and methods
        String valid = "{\"customerId\":\"c-1\",\"total\":1}";
        for (String type : List.of("text/plain", "application/xml", "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=x", "application/octet-stream", "image/png")) {
            out.add(new BadRequest("media", "POST", ORDERS, type, bytes(valid), "a valid body with the wrong type")
                    .expecting(415, "unsupported_media_type", null));
        }
        for (String method : List.of("PUT", "DELETE", "PATCH")) {
            out.add(new BadRequest("method", method, ORDERS, JSON, bytes(valid), "a method the resource lacks"));
            out.add(new BadRequest("method", method, ORDERS + "/" + contract.existingOrderId(), JSON, bytes(valid),
                    "a method the order resource lacks"));
        }
        // deep nesting (a parser's stack), a large array, many keys
        out.add(create("nesting", "[".repeat(100_000), "100,000 open arrays"));
        out.add(create("nesting", "{\"customerId\":\"c\",\"total\":1,\"x\":" + "[".repeat(50_000) + "]".repeat(50_000)
                + "}", "a field nested 50,000 deep"));
        out.add(create("nesting", "{\"customerId\":\"c\",\"total\":" + "[".repeat(5_000) + "1" + "]".repeat(5_000) + "}",
                "total nested in 5,000 arrays"));
        // status changes: invalid bodies and values for an existing order
        String statusPath = ORDERS + "/" + contract.existingOrderId() + "/status";
        for (String body : List.of("", "{}", "null", "{\"status\":null}", "{\"status\":\"\"}", "{\"status\":\"   \"}",
                "{\"status\":\"NOT_A_STATUS\"}", "{\"status\":42}", "{\"status\":[\"PAID\"]}", "{\"status\":{}}",
                "{\"status\":\"PAID\"", "{\"state\":\"PAID\"}")) {
            out.add(new BadRequest("status", "POST", statusPath, JSON, bytes(body), "an invalid status change"));
        }
        for (String sql : SQL) {
            out.add(new BadRequest("sql", "POST", statusPath, JSON, bytes("{\"status\":" + jsonString(sql) + "}"),
                    "SQL as the status"));
        }
        // known statuses for an order that does not exist
        for (String status : contract.statuses()) {
            out.add(new BadRequest("unknown-id", "POST", ORDERS + "/" + randomUuid() + "/status", JSON,
                    bytes("{\"status\":\"" + status + "\"}"), "status change of an unknown order"));
        }
        // ids that are not ids
        for (String id : List.of("0", "-1", "null", "undefined", "00000000-0000-0000-0000-000000000000",
                "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz", "x".repeat(2_000), "%F0%9F%92%A5")) {
            out.add(new BadRequest("unknown-id", "GET", ORDERS + "/" + id, null, null, "GET of a malformed or unknown id"));
            out.add(new BadRequest("unknown-id", "GET", "api/projection/" + id, null, null,
                    "projection of a malformed or unknown id"));
        }
        // paths the server itself refuses before any application sees them, in its own format (an encoded NUL, dot
        // segments and slashes, percent-encoded bytes that are not UTF-8)
        for (String id : List.of("%00", "%2e%2e", "..%2f..%2fetc%2fpasswd", "%C3%28", "%FF%FE")) {
            out.add(new BadRequest(MALFORMED_URI, "GET", ORDERS + "/" + id, null, null, "GET of a malformed URI"));
            out.add(new BadRequest(MALFORMED_URI, "GET", "api/projection/" + id, null, null, "projection of a malformed URI"));
        }
        // huge bodies
        out.add(create("huge", "{\"customerId\":\"" + "c".repeat(2 * 1024 * 1024) + "\",\"total\":1}",
                "a 2 MiB customer id"));
        out.add(create("huge", "{\"customerId\":\"c-1\",\"total\":1,\"padding\":\"" + "p".repeat(12 * 1024 * 1024)
                + "}", "a 12 MiB unterminated body").expecting(413, "too_large", "body"));
        out.add(create("huge", " ".repeat(3 * 1024 * 1024) + "{", "3 MiB of whitespace, then nothing valid"));
    }

    // --- generated variants -------------------------------------------------------------------

    /** A valid order cut short: any proper prefix of a JSON object is not JSON. */
    private BadRequest truncatedCreate() {
        String valid = validCreate();
        int cut = 1 + random.nextInt(valid.length() - 1);
        return create("truncated", valid.substring(0, cut), "a valid order cut after " + cut + " characters");
    }

    /** A structural character removed or doubled, or garbage inserted between tokens. */
    private BadRequest brokenSyntaxCreate() {
        String customer = customer();
        String total = total();
        String[] variants = {
            "{\"customerId\":\"" + customer + "\",,\"total\":" + total + "}",
            "{\"customerId\"\"" + customer + "\",\"total\":" + total + "}",
            "{\"customerId\":\"" + customer + "\" \"total\":" + total + "}",
            "{\"customerId\":\"" + customer + ",\"total\":" + total + "}",
            "{{\"customerId\":\"" + customer + "\",\"total\":" + total + "}",
            "{\"customerId\":\"" + customer + "\",\"total\":" + total + "}}",
            "{\"customerId\":\"" + customer + "\",\"total\":" + total + "]",
            "{\"customerId\":\"" + customer + "\":\"total\":" + total + "}",
            "{\"customerId\":\"" + customer + "\",\"total\"" + total + "}",
            "{\"customerId\":\"" + customer + "\",\"total\":" + total + " " + total + "}",
        };
        int i = random.nextInt(variants.length);
        return create("syntax", variants[i], "broken syntax #" + i);
    }

    /** Bytes that are not UTF-8 inside the customer id: a strict decoder refuses them. */
    private BadRequest invalidUtf8Create() {
        byte[][] bad = {
            {(byte) 0xC3, 0x28}, {(byte) 0xA0, (byte) 0xA1}, {(byte) 0xE2, 0x28, (byte) 0xA1},
            {(byte) 0xF0, 0x28, (byte) 0x8C, (byte) 0xBC}, {(byte) 0xFF}, {(byte) 0xFE, (byte) 0xFF},
            {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xE0, (byte) 0x80, (byte) 0xAF},
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            {(byte) 0x80}, {(byte) 0xC2},
        };
        int i = random.nextInt(bad.length);
        byte[] prefix = bytes("{\"customerId\":\"" + customer().substring(0, 3));
        byte[] suffix = bytes(customer().substring(3) + "\",\"total\":" + total() + "}");
        byte[] body = new byte[prefix.length + bad[i].length + suffix.length];
        System.arraycopy(prefix, 0, body, 0, prefix.length);
        System.arraycopy(bad[i], 0, body, prefix.length, bad[i].length);
        System.arraycopy(suffix, 0, body, prefix.length + bad[i].length, suffix.length);
        return new BadRequest("utf8", "POST", ORDERS, JSON + "; charset=UTF-8", body, "invalid UTF-8 sequence #" + i);
    }

    private BadRequest wrongTypeCreate() {
        String customer = jsonString(customer());
        String[] totals = {"\"" + customer() + "\"", "true", "[" + total() + "]", "{\"amount\":" + total() + "}",
            "\"" + total() + " EUR\"", "\"-" + total() + "\""};
        String[] customers = {"[" + customer + "]", "{\"id\":" + customer + "}", "[]"};
        if (random.nextBoolean()) {
            return create("type", "{\"customerId\":" + customer + ",\"total\":" + totals[random.nextInt(totals.length)]
                    + "}", "total of a wrong type");
        }
        return create("type", "{\"customerId\":" + customers[random.nextInt(customers.length)] + ",\"total\":" + total()
                + "}", "customerId of a wrong type");
    }

    private BadRequest unknownId() {
        String id = randomUuid().toString();
        return switch (random.nextInt(3)) {
            case 0 -> new BadRequest("unknown-id", "GET", ORDERS + "/" + id, null, null, "GET of an unknown order");
            case 1 -> new BadRequest("unknown-id", "GET", "api/projection/" + id, null, null,
                    "projection of an unknown order");
            default -> new BadRequest("unknown-id", "POST", ORDERS + "/" + id + "/status", JSON,
                    bytes("{\"status\":\"" + contract.statuses().get(random.nextInt(contract.statuses().size())) + "\"}"),
                    "status change of an unknown order");
        };
    }

    /** SQL where the API wants an id, a number or a status (never as a customer name, which is free text). */
    private BadRequest sqlInPlaceOfAValue() {
        String sql = SQL.get(random.nextInt(SQL.size()));
        String encoded = java.net.URLEncoder.encode(sql, StandardCharsets.UTF_8).replace("+", "%20");
        return switch (random.nextInt(4)) {
            case 0 -> new BadRequest("sql", "GET", ORDERS + "/" + encoded, null, null, "SQL as an order id");
            case 1 -> new BadRequest("sql", "GET", "api/projection/" + encoded, null, null, "SQL as a projection id");
            case 2 -> new BadRequest("sql", "POST", ORDERS + "/" + encoded + "/status", JSON,
                    bytes("{\"status\":\"" + contract.statuses().get(0) + "\"}"), "SQL as the id of a status change");
            default -> create("sql", "{\"customerId\":\"" + customer() + "\",\"total\":" + jsonString(sql) + "}",
                    "SQL as the total");
        };
    }

    private BadRequest oversizedCreate() {
        int max = contract.customerIdMaxLength();
        int length = switch (random.nextInt(3)) {
            case 0 -> max + 1 + random.nextInt(10);
            case 1 -> max * 10;
            default -> 65_536 + random.nextInt(65_536);
        };
        StringBuilder id = new StringBuilder(length);
        while (id.length() < length) {
            id.append((char) ('a' + random.nextInt(26)));
        }
        return create("oversized", "{\"customerId\":\"" + id + "\",\"total\":" + total() + "}",
                "a customer id of " + length + " characters (max " + max + ")");
    }

    // --- helpers ----------------------------------------------------------------------------

    private BadRequest create(String category, String body, String description) {
        return new BadRequest(category, "POST", ORDERS, JSON, bytes(body), description);
    }

    private String validCreate() {
        return "{\"customerId\":\"" + customer() + "\",\"total\":" + total() + "}";
    }

    private String customer() {
        return "bad-" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
    }

    private String total() {
        return random.nextInt(10_000) + "." + String.format("%02d", random.nextInt(100));
    }

    /** A random (version 4 shaped) UUID from the seeded generator, so that a seed repeats the run. */
    private UUID randomUuid() {
        long msb = (random.nextLong() & 0xffffffffffff0fffL) | 0x0000000000004000L;
        long lsb = (random.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }

    static String jsonString(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
