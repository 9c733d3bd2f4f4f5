package io.eeoutbox.sample.fault.harness;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a Prometheus text endpoint as a monitoring system would (the relay's metrics, when the server
 * exports them): the value of each sample name, summed over its labels. Empty when the endpoint does
 * not answer: the figures then say the metrics were not available, and the database counts stand.
 */
public final class Metrics {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private Metrics() {
    }

    public static Map<String, Double> scrape(URI endpoint) {
        Map<String, Double> values = new HashMap<>();
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return values;
            }
            for (String line : r.body().split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int brace = line.indexOf('{');
                int space = line.lastIndexOf(' ');
                if (space < 0) {
                    continue;
                }
                String name = brace >= 0 && brace < space ? line.substring(0, brace) : line.substring(0, line.indexOf(' '));
                try {
                    values.merge(name, Double.parseDouble(line.substring(space + 1).trim()), Double::sum);
                } catch (NumberFormatException e) {
                    // a timestamp or an odd line: skip
                }
            }
        } catch (Exception e) {
            // not available
        }
        return values;
    }
}
