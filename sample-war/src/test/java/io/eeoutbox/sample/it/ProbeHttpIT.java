package io.eeoutbox.sample.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The probe's REST API over HTTP only, as a client sees it. */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class ProbeHttpIT {

    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([0-9a-f-]{36})\"");

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.probe();
    }

    @ArquillianResource
    private URL base;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void createdProbeCanBeReadBack() throws Exception {
        String label = "http-" + UUID.randomUUID();
        HttpResponse<String> created = post("{\"label\":\"" + label + "\"}");
        assertEquals(201, created.statusCode(), created.body());
        Matcher id = ID.matcher(created.body());
        assertTrue(id.find(), created.body());
        String location = created.headers().firstValue("Location").orElseThrow();
        assertTrue(location.endsWith("/api/probe/" + id.group(1)), location);

        HttpResponse<String> read = get("api/probe/" + id.group(1));
        assertEquals(200, read.statusCode(), read.body());
        assertTrue(read.body().contains("\"label\":\"" + label + "\""), read.body());
        assertTrue(read.body().contains("\"source\":\"REST\""), read.body());
    }

    @Test
    void unknownProbeIsNotFound() throws Exception {
        assertEquals(404, get("api/probe/" + UUID.randomUUID()).statusCode());
    }

    @Test
    void blankLabelIsABadRequest() throws Exception {
        assertEquals(400, post("{\"label\":\"  \"}").statusCode());
    }

    private HttpResponse<String> post(String json) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "api/probe"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
