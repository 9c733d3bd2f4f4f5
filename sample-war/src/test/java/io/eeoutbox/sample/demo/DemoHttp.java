package io.eeoutbox.sample.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The demo's HTTP calls, through {@link HttpURLConnection}: it starts no thread of its own (its keep-alive timer is a
 * JDK system thread that ends by itself), whereas a Java 17 {@code java.net.http.HttpClient} keeps a selector thread and
 * a pool until it is garbage-collected, threads that exec:java would find still running when the demo ends.
 */
final class DemoHttp {

    private static final Duration CONNECT = Duration.ofSeconds(5);

    /** An answer: status and body. */
    record Answer(int status, String body) {
    }

    private DemoHttp() {
    }

    static Answer get(String url, Duration timeout) throws IOException {
        return send(url, "GET", null, timeout);
    }

    static Answer postJson(String url, String json, Duration timeout) throws IOException {
        return send(url, "POST", json, timeout);
    }

    private static Answer send(String url, String method, String json, Duration timeout) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        try {
            c.setConnectTimeout((int) CONNECT.toMillis());
            c.setReadTimeout((int) timeout.toMillis());
            c.setRequestMethod(method);
            if (json != null) {
                byte[] body = json.getBytes(StandardCharsets.UTF_8);
                c.setDoOutput(true);
                c.setFixedLengthStreamingMode(body.length);
                c.setRequestProperty("Content-Type", "application/json");
                try (OutputStream out = c.getOutputStream()) {
                    out.write(body);
                }
            }
            int status = c.getResponseCode();
            InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
            String text = "";
            if (in != null) {
                try (in) {
                    text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            return new Answer(status, text);
        } finally {
            c.disconnect();
        }
    }
}
