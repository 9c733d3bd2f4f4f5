package io.eeoutbox.ops.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The relay's MicroProfile Health checks on each server's health endpoints: WildFly's management port
 * ({@code microprofile-health-smallrye}), Liberty's HTTP port ({@code mpHealth-4.0}).
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class HealthIT {

    private static final String CHECK = "\"name\":\"outbox-relay\"";

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
    void readinessIsDownWhileTheBrokerRefusesEverythingLongerThanTheThreshold() throws Exception {
        // the test publisher refuses these; no publish succeeds in between: the broker looks unreachable
        OutboxDb.recordEvent("ops.refused.health-a");
        OutboxDb.recordEvent("ops.refused.health-b");
        HttpResponse<String> down = Eventually.until(() -> get("ready"), r -> r.statusCode() == 503,
                "readiness DOWN after outbox.relay.health.unreachable-threshold=PT2S");
        assertTrue(compact(down.body()).contains("\"status\":\"DOWN\""), down.body());
        assertTrue(down.body().contains("every publish failing since"), down.body());
        RelayAdminJmxIT.report("readiness while the broker refuses: " + compact(down.body()));

        assertEquals(200, get("live").statusCode(), "the relay's loop still runs: alive");

        OutboxDb.recordEvent("ops.health-recovered"); // published: the broker answers again
        Eventually.until(() -> get("ready"), r -> r.statusCode() == 200, "readiness UP again after a publish");
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
