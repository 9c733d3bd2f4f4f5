package io.eeoutbox.ops.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.Optional;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The console's JSON API as a script uses it: who may read and act, and bad input answered with a 4xx naming the
 * field while nothing changes. Run on both servers by the {@code wildfly} and {@code liberty} profiles.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class ConsoleApiIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return ConsoleDeployment.war();
    }

    @ArquillianResource
    URL app;

    @Test
    void whoMayReadAndAct() throws Exception {
        assertEquals(401, new ConsoleHttp(app, null).get("api/overview").statusCode(), "anonymous");
        assertEquals(403, new ConsoleHttp(app, ConsoleHttp.NO_ROLE).get("api/overview").statusCode(), "no role");
        assertEquals(401, new ConsoleHttp(app, null).get("api/history").statusCode(), "anonymous: the chart's data");
        assertEquals(403, new ConsoleHttp(app, ConsoleHttp.NO_ROLE).get("api/history").statusCode(), "no role: the chart");
        ConsoleHttp viewer = new ConsoleHttp(app, ConsoleHttp.VIEWER).signIn();
        HttpResponse<String> overview = viewer.get("api/overview");
        assertEquals(200, overview.statusCode(), overview.body());
        String csp = overview.headers().firstValue("Content-Security-Policy").orElse("");
        assertTrue(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"), csp);
        assertEquals(OpsDeployment.RELAY_NAME, ConsoleHttp.json(overview).getJsonArray("relays").getJsonObject(0)
                .getString("name"));
        HttpResponse<String> history = viewer.get("api/history");
        assertEquals(200, history.statusCode(), history.body());
        assertEquals(10, ConsoleHttp.json(history).getInt("stepSeconds"), history.body());
        assertEquals(403, viewer.post("api/relay/pause", "{}").statusCode(), "a viewer may not pause");
        assertEquals(403, viewer.post("api/relay/run-now", "{}").statusCode(), "a viewer may not run the relay now");
        assertEquals("running", viewer.relayState());
        ConsoleHttp admin = new ConsoleHttp(app, ConsoleHttp.ADMIN).signIn();
        assertEquals(200, admin.post("api/relay/pause", "{}").statusCode());
        assertEquals("paused", admin.relayState());
        assertEquals(200, admin.post("api/relay/resume", "{}").statusCode());
        assertEquals("running", admin.relayState());
        HttpResponse<String> ranNow = admin.post("api/relay/run-now", "{}");
        assertEquals(200, ranNow.statusCode(), ranNow.body());
        assertEquals(OpsDeployment.RELAY_NAME, ConsoleHttp.json(ranNow).getString("name"), ranNow.body());
        assertEquals("running", admin.relayState());
    }

    /**
     * Every relay of the outbox (schema V13) through the console: the relay is in its own fleet view, marked as this
     * relay; a viewer may not pause all; an admin pauses all (answered with who acknowledged, this relay among them,
     * which then claims nothing: an event recorded meanwhile stays pending) and resumes all (the event is published).
     */
    @Test
    void anAdminPausesAndResumesEveryRelayOfTheOutbox() throws Exception {
        ConsoleHttp viewer = new ConsoleHttp(app, ConsoleHttp.VIEWER).signIn();
        JsonObject self = Eventually.until(() -> ConsoleHttp.json(viewer.get("api/fleet")).getJsonArray("relays")
                .getValuesAs(JsonObject.class).stream().filter(r -> r.getBoolean("self")).findFirst(),
                Optional::isPresent, "this relay in the fleet view").get();
        assertEquals(OpsDeployment.RELAY_NAME, self.getString("name"));
        assertEquals("running", self.getString("state"));
        assertEquals(403, viewer.post("api/fleet/pause-all", "{}").statusCode(), "a viewer may not pause all");
        assertEquals(false, ConsoleHttp.json(viewer.get("api/fleet")).getBoolean("paused"));

        ConsoleHttp admin = new ConsoleHttp(app, ConsoleHttp.ADMIN).signIn();
        UUID id;
        try {
            HttpResponse<String> paused = admin.post("api/fleet/pause-all", "{}");
            assertEquals(200, paused.statusCode(), paused.body());
            JsonObject change = ConsoleHttp.json(paused);
            assertEquals("console:" + ConsoleHttp.ADMIN, change.getString("by"), paused.body());
            assertTrue(change.getJsonArray("acknowledged").getValuesAs(jakarta.json.JsonString.class).stream()
                    .anyMatch(r -> r.getString().endsWith("/" + OpsDeployment.RELAY_NAME)), paused.body());
            assertEquals("fleet-paused", admin.relayState());
            id = OutboxDb.recordEvent("console.fleet-" + UUID.randomUUID().toString().substring(0, 8));
            // two heartbeats of this relay after the event (each longer than its poll): paused, it must not publish
            String seen = self(viewer).getString("lastSeen");
            String once = Eventually.until(() -> self(viewer).getString("lastSeen"), t -> !t.equals(seen), "a heartbeat");
            Eventually.until(() -> self(viewer).getString("lastSeen"), t -> !t.equals(once), "a second heartbeat");
            assertTrue(OutboxDb.processedAt(id).isEmpty(), "an event published while the fleet is paused");
        } finally {
            assertEquals(200, admin.post("api/fleet/resume-all", "{}").statusCode());
        }
        assertEquals("running", admin.relayState());
        Eventually.until(() -> OutboxDb.processedAt(id), Optional::isPresent, "the event published after resume all");
        assertEquals("console:" + ConsoleHttp.ADMIN, ConsoleHttp.json(viewer.get("api/fleet")).getString("changedBy"));
    }

    private static JsonObject self(ConsoleHttp viewer) throws Exception {
        return ConsoleHttp.json(viewer.get("api/fleet")).getJsonArray("relays").getValuesAs(JsonObject.class).stream()
                .filter(r -> r.getBoolean("self")).findFirst().orElseThrow();
    }

    @Test
    void aDeadLetterIsCountedReadAndRetriedByFilter() throws Exception {
        String type = "console.api-" + UUID.randomUUID().toString().substring(0, 8);
        UUID a = OutboxDb.insertDeadLetter(type);
        UUID b = OutboxDb.insertDeadLetter(type);
        ConsoleHttp admin = new ConsoleHttp(app, ConsoleHttp.ADMIN).signIn();
        JsonObject count = ConsoleHttp.json(admin.get("api/dead-letters/count?eventType=" + type + "&errorText=MADE+A+DEAD"));
        assertEquals(2, count.getInt("matching"));
        JsonObject page = ConsoleHttp.json(admin.get("api/dead-letters?eventType=" + type + "&limit=1"));
        assertEquals(1, page.getJsonArray("items").size());
        assertEquals(2, page.getInt("matching"));
        JsonObject second = ConsoleHttp.json(admin.get("api/dead-letters?eventType=" + type + "&limit=1&after="
                + page.getJsonNumber("nextAfter").longValue()));
        assertEquals(b.toString(), second.getJsonArray("items").getJsonObject(0).getString("id"));
        assertEquals("{\"test\": true}", ConsoleHttp.json(admin.get("api/dead-letters/" + a)).getString("payload"));

        HttpResponse<String> retried = admin.post("api/dead-letters/retry", "{\"eventType\": \"" + type + "\"}");
        assertEquals(200, retried.statusCode(), retried.body());
        assertEquals(2, ConsoleHttp.json(retried).getInt("retried"));
        Eventually.until(() -> OutboxDb.processedAt(a).isPresent() && OutboxDb.processedAt(b).isPresent(), done -> done,
                "both retried dead letters to be published");
    }

    @Test
    void anAdminPurgesPublishedRowsOlderThanTheDurationAndKeepsTheRest() throws Exception {
        String type = "console.purge-" + UUID.randomUUID().toString().substring(0, 8);
        UUID old = OutboxDb.recordEvent(type);
        Eventually.until(() -> OutboxDb.secondsSincePublished(old), since -> since.orElse(0.0) > 3,
                "the first event published more than 3 s ago");
        UUID recent = OutboxDb.recordEvent(type);
        Eventually.until(() -> OutboxDb.processedAt(recent), Optional::isPresent, "the second event published");
        UUID dead = OutboxDb.insertDeadLetter(type);

        ConsoleHttp admin = new ConsoleHttp(app, ConsoleHttp.ADMIN).signIn();
        HttpResponse<String> purged = admin.post("api/purge", "{\"olderThan\": \"PT3S\"}");
        assertEquals(200, purged.statusCode(), purged.body());
        assertTrue(ConsoleHttp.json(purged).getJsonNumber("deleted").longValue() >= 1, purged.body());
        assertEquals(false, OutboxDb.exists(old), "the event published more than 3 s ago is purged");
        assertEquals(true, OutboxDb.exists(recent), "the event published within the last 3 s stays");
        assertEquals(true, OutboxDb.exists(dead), "a dead letter is never purged");
    }

    @Test
    void badInputIsRefusedNamingTheFieldAndChangesNothing() throws Exception {
        String type = "console.bad-" + UUID.randomUUID().toString().substring(0, 8);
        UUID dead = OutboxDb.insertDeadLetter(type);
        ConsoleHttp admin = new ConsoleHttp(app, ConsoleHttp.ADMIN).signIn();

        refused(admin.get("api/dead-letters?limit=1000"), 400, "limit");
        refused(admin.get("api/dead-letters?limit=ten"), 400, "limit");
        refused(admin.get("api/dead-letters?after=-1"), 400, "after");
        refused(admin.get("api/dead-letters?createdFrom=yesterday"), 400, "createdFrom");
        refused(admin.get("api/dead-letters?createdFrom=2026-03-02&createdTo=2026-03-01"), 400, "createdTo");
        refused(admin.get("api/dead-letters?evenType=" + type), 400, "evenType");
        refused(admin.get("api/dead-letters/count?eventType=" + "x".repeat(101)), 400, "eventType");
        refused(admin.get("api/dead-letters/not-a-uuid"), 400, "id");
        refused(admin.get("api/dead-letters/" + UUID.randomUUID()), 404, "id");

        refused(admin.post("api/dead-letters/" + UUID.randomUUID() + "/retry", "{}"), 404, "id");
        refused(admin.post("api/dead-letters/not-a-uuid/retry", "{}"), 400, "id");
        // a misspelt filter must not widen a retry to every dead letter
        refused(admin.post("api/dead-letters/retry", "{\"evenType\": \"" + type + "\"}"), 400, "evenType");
        refused(admin.post("api/dead-letters/retry", "{\"eventType\": 42}"), 400, "eventType");
        refused(admin.post("api/dead-letters/retry", "{\"eventType\": "), 400, "body");
        refused(admin.post("api/dead-letters/retry", "text/plain", "{\"eventType\": \"" + type + "\"}", true), 415,
                "Content-Type");
        refused(admin.post("api/dead-letters/retry", "application/json", "{\"eventType\": \"" + type + "\"}", false), 403,
                "X-Outbox-Csrf");
        refused(admin.post("api/purge", "{\"olderThan\": \"-P1D\"}"), 400, "olderThan");
        refused(admin.post("api/purge", "{\"olderThan\": \"a week\"}"), 400, "olderThan");
        refused(admin.post("api/purge", "{}"), 400, "olderThan");
        refused(admin.post("api/relay/pause", "{\"now\": \"yes\"}"), 400, "now");

        assertTrue(OutboxDb.deadAt(dead).isPresent(), "the dead letter is still one");
        assertEquals(Optional.empty(), OutboxDb.processedAt(dead));
        assertEquals("running", admin.relayState(), "nothing paused the relay");
    }

    private static void refused(HttpResponse<String> r, int status, String field) {
        assertEquals(status, r.statusCode(), r.request().uri() + ": " + r.body());
        JsonObject body = ConsoleHttp.json(r);
        assertEquals(field, body.getString("field"), r.body());
        assertTrue(body.getString("error").contains(field), r.body());
    }
}
