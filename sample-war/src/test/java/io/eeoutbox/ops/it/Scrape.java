package io.eeoutbox.ops.it;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One scrape of the server's Prometheus endpoint, with the {@code outbox_} samples parsed. */
record Scrape(String text, List<Sample> samples) {

    private static final Pattern SAMPLE = Pattern.compile("^(outbox_[a-z0-9_]+)(\\{[^}]*\\})?\\s+(\\S+)(\\s+\\S+)?$");

    record Sample(String name, String labels, double value) {
    }

    static Scrape now() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(ServerUnderTest.current().metrics()).header("Accept", "text/plain").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError("GET " + ServerUnderTest.current().metrics() + " answered " + r.statusCode() + ": "
                    + r.body());
        }
        List<Sample> samples = new ArrayList<>();
        for (String line : r.body().split("\n")) {
            Matcher m = SAMPLE.matcher(line.strip());
            if (m.matches()) {
                samples.add(new Sample(m.group(1), m.group(2) == null ? "" : m.group(2), Double.parseDouble(m.group(3))));
            }
        }
        return new Scrape(r.body(), samples);
    }

    /** The value of the first sample named {@code name} whose labels contain every one of {@code labels}. */
    OptionalDouble value(String name, String... labels) {
        for (Sample s : samples) {
            if (s.name().equals(name) && containsAll(s.labels(), labels)) {
                return OptionalDouble.of(s.value());
            }
        }
        return OptionalDouble.empty();
    }

    /** The {@code outbox_} sample names, each once, in the order they appear. */
    List<String> names() {
        List<String> names = new ArrayList<>();
        for (Sample s : samples) {
            if (!names.contains(s.name())) {
                names.add(s.name());
            }
        }
        return names;
    }

    /** Every {@code outbox_} line, TYPE and HELP included: what an operator sees. */
    String outboxLines() {
        StringBuilder sb = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.contains("outbox_")) {
                sb.append(line).append('\n');
            }
        }
        return sb.toString();
    }

    private static boolean containsAll(String actual, String... labels) {
        for (String l : labels) {
            if (!actual.contains(l)) {
                return false;
            }
        }
        return true;
    }
}
