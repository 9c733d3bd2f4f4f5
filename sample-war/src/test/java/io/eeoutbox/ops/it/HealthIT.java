package io.eeoutbox.ops.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The relay's MicroProfile Health checks on each server's health endpoints: WildFly's management port
 * ({@code microprofile-health-smallrye}), Liberty's HTTP port ({@code mpHealth-4.0}). Readiness is DOWN only
 * when the database cannot be written; a broker outage shows in the check's data, never as DOWN. The same with
 * the broker really down, and orders taken meanwhile, on both servers: {@link BrokerOutageIT}.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class HealthIT {

    private static final String CHECK = "\"name\":\"outbox-relay\"";
    private static final Pattern FAILING_FOR = Pattern.compile("every publish failing since [^(]*\\((\\d+) s\\)");

    @Deployment(testable = false)
    static WebArchive deployment() {
        return OpsDeployment.war();
    }

    @Test
    void readinessAndLivenessAreUpWithTheRelaysData() throws Exception {
        OutboxDb.recordEvent("ops.health"); // a publish that works: the broker answers
        HttpResponse<String> ready = Eventually.until(() -> get("ready"), r -> r.statusCode() == 200,
                "readiness UP");
        assertTrue(compact(ready.body()).contains(CHECK), ready.body());
        assertTrue(compact(ready.body()).contains("\"database\":\"reachable\""), ready.body());

        HttpResponse<String> live = get("live");
        assertEquals(200, live.statusCode(), live.body());
        assertTrue(compact(live.body()).contains(CHECK), live.body());
        assertTrue(compact(live.body()).contains("\"paused\":false"), live.body());
        RelayAdminJmxIT.report("health: " + compact(ready.body()) + " " + compact(live.body()));
    }

    @Test
    void readinessStaysUpWhileTheBrokerRefusesEverythingLongerThanTheThreshold() throws Exception {
        // the test publisher refuses these; no publish succeeds in between: the broker looks unreachable
        OutboxDb.recordEvent("ops.refused.health-a");
        OutboxDb.recordEvent("ops.refused.health-b");
        HttpResponse<String> outage = Eventually.until(() -> get("ready"), HealthIT::failingLongerThanTheThreshold,
                "the health data showing every publish failing for longer than outbox.relay.health.unreachable-threshold=PT2S");
        assertEquals(200, outage.statusCode(), "readiness stays UP: the application still takes writes; " + outage.body());
        assertTrue(compact(outage.body()).contains("\"status\":\"UP\""), outage.body());
        RelayAdminJmxIT.report("readiness while the broker refuses: " + compact(outage.body()));

        assertEquals(200, get("live").statusCode(), "the relay's loop still runs: alive");

        OutboxDb.recordEvent("ops.health-recovered"); // published: the broker answers again
        Eventually.until(() -> get("ready"), r -> compact(r.body()).contains("\"broker\":\"reachable\""),
                "the broker reachable again in the health data after a publish");
    }

    /** The broker failing (in the data) for longer than the test WAR's threshold of 2 s. */
    private static boolean failingLongerThanTheThreshold(HttpResponse<String> r) {
        Matcher m = FAILING_FOR.matcher(r.body());
        return m.find() && Long.parseLong(m.group(1)) > 2;
    }

    private static HttpResponse<String> get(String probe) throws Exception {
        URI uri = ServerUnderTest.current().health(probe);
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String compact(String json) {
        return json.replaceAll("\\s+", "");
    }
}
