package io.eeoutbox.sample.fault.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Authenticator;
import java.net.HttpURLConnection;
import java.net.PasswordAuthentication;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * WildFly's HTTP management API ({@code POST /management}, JSON, HTTP Digest authentication as a
 * ManagementRealm user): the operations the CLI would run, without starting a CLI JVM for each.
 */
public final class WildFlyManagement {

    private final URI endpoint;
    private final Authenticator authenticator;

    /** The management API of the WildFly listening for management on {@code port} of this host. */
    public static WildFlyManagement onLocalPort(int port, String user, String password) {
        return new WildFlyManagement(URI.create("http://127.0.0.1:" + port + "/management"), user, password);
    }

    /** The same API without credentials: what a caller who has none gets (HTTP 401). */
    public static WildFlyManagement anonymousOnLocalPort(int port) {
        return new WildFlyManagement(URI.create("http://127.0.0.1:" + port + "/management"), null, null);
    }

    WildFlyManagement(URI endpoint, String user, String password) {
        this.endpoint = endpoint;
        this.authenticator = new Authenticator() {
            @Override
            protected PasswordAuthentication getPasswordAuthentication() {
                return user == null ? null : new PasswordAuthentication(user, password.toCharArray());
            }
        };
    }

    /**
     * Runs {@code operation} on the resource at {@code address} (pairs: "subsystem", "messaging-activemq",
     * "server", "default", ...) with string parameters.
     *
     * @return the response body (JSON)
     * @throws IllegalStateException when the outcome is not success
     */
    public String run(String operation, Map<String, String> params, String... address) throws IOException {
        Response response = call(operation, params, address);
        if (!response.succeeded()) {
            throw new IllegalStateException("WildFly management " + response.request() + " -> HTTP " + response.status()
                    + ": " + response.body());
        }
        return response.body();
    }

    /** What the management API answered to one request: its HTTP status and body (JSON), success or not. */
    public record Response(String request, int status, String body) {
        public boolean succeeded() {
            return status == 200 && body.replace(" ", "").contains("\"outcome\":\"success\"");
        }
    }

    /**
     * Runs {@code operation} as {@link #run(String, Map, String...)} does, but returns a failure too (a refused or
     * failed operation: HTTP 401, 403 or 500 with {@code "outcome" : "failed"} and its {@code failure-description}).
     */
    public Response call(String operation, Map<String, String> params, String... address) throws IOException {
        if (address.length % 2 != 0) {
            throw new IllegalArgumentException("address must be pairs: " + String.join("/", address));
        }
        StringBuilder json = new StringBuilder("{\"operation\":").append(quote(operation)).append(",\"address\":[");
        for (int i = 0; i < address.length; i += 2) {
            json.append(i == 0 ? "" : ",").append('{').append(quote(address[i])).append(':')
                    .append(quote(address[i + 1])).append('}');
        }
        json.append(']');
        params.forEach((k, v) -> json.append(',').append(quote(k)).append(':').append(quote(v)));
        json.append('}');
        HttpURLConnection c = (HttpURLConnection) endpoint.toURL().openConnection();
        c.setAuthenticator(authenticator); // never the JVM's default one: an anonymous instance sends no credentials
        c.setConnectTimeout(5000);
        c.setReadTimeout(60000);
        c.setRequestMethod("POST");
        c.setRequestProperty("Content-Type", "application/json");
        c.setDoOutput(true);
        try (OutputStream out = c.getOutputStream()) {
            out.write(json.toString().getBytes(StandardCharsets.UTF_8));
        }
        int status = c.getResponseCode();
        String body;
        try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
            body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return new Response(json.toString(), status, body);
    }

    public String run(String operation, String... address) throws IOException {
        return run(operation, Map.of(), address);
    }

    /**
     * A whole number from the result of {@code operation} on {@code address}: the result itself
     * ({@code key} null, e.g. {@code count-messages}) or its attribute {@code key} (e.g.
     * {@code messages-added} of {@code read-resource}); -1 when the call fails or holds no such number,
     * so that a figure says "unknown" instead of failing the scenario.
     */
    public long number(String operation, Map<String, String> params, String key, String... address) {
        try {
            String body = run(operation, params, address);
            Matcher m = Pattern.compile("\"" + Pattern.quote(key == null ? "result" : key) + "\"\\s*:\\s*(\\d+)")
                    .matcher(body);
            return m.find() ? Long.parseLong(m.group(1)) : -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Entries of the list in a management result ({@code "result" : ["a", "b"]}); -1 when there is none. */
    public static long listed(String body) {
        int at = body.indexOf("\"result\"");
        int open = at < 0 ? -1 : body.indexOf('[', at);
        int close = open < 0 ? -1 : body.indexOf(']', open);
        if (open < 0 || close < 0) {
            return -1;
        }
        String inside = body.substring(open + 1, close).trim();
        return inside.isEmpty() ? 0 : inside.split(",").length;
    }

    /** Adds or replaces a system property at runtime ({@code /system-property=name}). */
    public void setSystemProperty(String name, String value) throws IOException {
        try {
            run("remove", "system-property", name);
        } catch (IllegalStateException absent) {
            // was not set
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("value", value);
        run("add", p, "system-property", name);
    }

    /** Removes a system property at runtime; a property that is not set is fine. */
    public void removeSystemProperty(String name) throws IOException {
        try {
            run("remove", "system-property", name);
        } catch (IllegalStateException absent) {
            // was not set
        }
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> b.append(ch);
            }
        }
        return b.append('"').toString();
    }
}
