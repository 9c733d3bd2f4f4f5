package io.eeoutbox.sample.it;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A small JSON-over-HTTP client for the black-box tests. */
final class Http {

    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([0-9a-f-]{36})\"");

    private final String base;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    Http(URL base) {
        this(base.toString());
    }

    Http(String base) {
        this.base = base.endsWith("/") ? base : base + "/";
    }

    /** POSTs {@code json}; {@code headers}: more request headers, as name, value, name, value, ... */
    HttpResponse<String> post(String path, String json, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json");
        if (headers.length > 0) {
            request.headers(headers);
        }
        return client.send(request.POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** POSTs {@code body} as {@code contentType}. */
    HttpResponse<String> postAs(String contentType, String path, String body) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** POSTs {@code json} without a Content-Length (chunked), as a client that streams its body does. */
    HttpResponse<String> postChunked(String path, String json) throws Exception {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        HttpRequest.BodyPublisher unknownLength = HttpRequest.BodyPublishers.ofInputStream(
                () -> new ByteArrayInputStream(bytes));
        return client.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(unknownLength).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends {@code json} with {@code method}. */
    HttpResponse<String> send(String method, String path, String json) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The "id" of a JSON answer. */
    static String id(HttpResponse<String> response) {
        Matcher m = ID.matcher(response.body());
        if (!m.find()) {
            throw new AssertionError("no id in " + response.statusCode() + " " + response.body());
        }
        return m.group(1);
    }
}
