package io.eeoutbox.ops.it;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.net.CookieManager;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * A script's view of the console's JSON API: HTTP Basic as one of the test servers' users (their
 * {@code sample.console.users}, checked by the sample's Jakarta Security identity store), with its cookies, and the CSRF token from
 * {@code GET api/session}.
 */
final class ConsoleHttp {

    static final String ADMIN = "outbox-admin";
    static final String VIEWER = "outbox-viewer";
    static final String NO_ROLE = "outbox-norole";

    final URI console;
    private final String authorization;
    private final HttpClient http;
    String csrfToken;

    /** {@code user} null: anonymous. The password of each test user is its name followed by "-1". */
    ConsoleHttp(URL app, String user) {
        this.console = URI.create(ConsoleHttp.slash(app) + "outbox-admin/");
        this.authorization = user == null ? null
                : "Basic " + Base64.getEncoder().encodeToString((user + ":" + user + "-1").getBytes(StandardCharsets.UTF_8));
        this.http = HttpClient.newBuilder().cookieHandler(new CookieManager()).connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** The application's URL with one trailing slash. */
    static String slash(URL app) {
        String s = app.toString();
        return s.endsWith("/") ? s : s + "/";
    }

    static String passwordOf(String user) {
        return user + "-1";
    }

    /** Fetches a CSRF token (and its cookie) for later POSTs. */
    ConsoleHttp signIn() throws Exception {
        HttpResponse<String> r = get("api/session");
        if (r.statusCode() != 200) {
            throw new AssertionError("GET api/session: " + r.statusCode() + " " + r.body());
        }
        csrfToken = json(r).getString("csrfToken");
        return this;
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String contentType, String body, boolean withToken)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = request(path).POST(HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        if (withToken && csrfToken != null) {
            b.header("X-Outbox-Csrf", csrfToken);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String jsonBody) throws IOException, InterruptedException {
        return post(path, "application/json", jsonBody, true);
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(console.resolve(path)).timeout(Duration.ofSeconds(30));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return b;
    }

    static JsonObject json(HttpResponse<String> r) {
        try (JsonReader reader = Json.createReader(new StringReader(r.body()))) {
            return reader.readObject();
        }
    }

    /** The relay's state as the API reports it: running, paused, waiting-for-broker or stopped. */
    String relayState() throws Exception {
        HttpResponse<String> r = get("api/overview");
        if (r.statusCode() != 200) {
            throw new AssertionError("GET api/overview: " + r.statusCode() + " " + r.body());
        }
        return json(r).getJsonArray("relays").getJsonObject(0).getString("state");
    }
}
