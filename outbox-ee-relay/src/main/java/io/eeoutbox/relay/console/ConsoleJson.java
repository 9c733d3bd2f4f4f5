package io.eeoutbox.relay.console;

import io.eeoutbox.relay.ops.History;
import io.eeoutbox.relay.ops.CdcSlotView;
import io.eeoutbox.relay.ops.RelayOperations;
import io.eeoutbox.relay.ops.RelayOperations.Backlog;
import io.eeoutbox.relay.ops.RelayOperations.DeadLetterPage;
import io.eeoutbox.relay.ops.RelayOperations.Failure;
import io.eeoutbox.relay.ops.RelayOperations.PendingType;
import io.eeoutbox.relay.ops.RelayOperations.RelayView;
import io.eeoutbox.relay.store.OperatorQueries.DeadLetter;
import io.eeoutbox.relay.store.CdcStatements;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The console API's answers as JSON: times ISO-8601 (UTC), ages in seconds. */
final class ConsoleJson {

    private ConsoleJson() {
    }

    static JsonObject overview(RelayView r, Backlog b, List<Failure> failures, Map<String, String> settings,
                               CdcStatements.Slot cdcSlot) {
        JsonArrayBuilder types = Json.createArrayBuilder();
        for (PendingType t : b.byType()) {
            types.add(Json.createObjectBuilder().add("eventType", t.eventType()).add("pending", t.pending())
                    .add("oldestAgeSeconds", t.oldestAge().toSeconds()));
        }
        JsonArrayBuilder fails = Json.createArrayBuilder();
        for (Failure f : failures) {
            JsonObjectBuilder o = Json.createObjectBuilder();
            time(o, "at", f.at());
            text(o, "eventId", f.attempt().eventId().toString());
            text(o, "eventType", f.attempt().eventType());
            text(o, "aggregateId", f.attempt().aggregateId());
            fails.add(o.add("attempt", f.attempt().number()).add("error", f.error()).add("deadLettered", f.deadLettered()));
        }
        JsonObjectBuilder s = Json.createObjectBuilder();
        settings.forEach(s::add);
        JsonObjectBuilder backlog = Json.createObjectBuilder().add("pending", b.pending()).add("dead", b.dead())
                .add("oldestPendingAgeSeconds", b.oldestPendingAge().toSeconds()).add("byEventType", types)
                .add("scheduled", b.scheduled()).add("mode", cdcSlot == null ? "relay" : "cdc");
        if (cdcSlot != null) { // pending does not apply: null, not a misleading 0; the slot replaces it (docs/cdc.md)
            JsonObjectBuilder slot = Json.createObjectBuilder();
            CdcSlotView.of(cdcSlot, null).forEach(slot::add);
            backlog.addNull("pending").addNull("oldestPendingAgeSeconds").add("kept", b.pending()).add("cdcSlot", slot);
        }
        time(backlog, "nextScheduledDueAt", b.nextScheduledDueAt());
        return Json.createObjectBuilder().add("relays", Json.createArrayBuilder().add(relay(r)))
                .add("backlog", backlog).add("recentFailures", fails).add("settings", s).build();
    }

    static JsonObjectBuilder relay(RelayView r) {
        JsonObjectBuilder o = Json.createObjectBuilder().add("name", r.name()).add("state", r.state())
                .add("publisher", r.publisher()).add("listening", r.listening());
        time(o, "lastLoopAt", r.activity().lastLoopAt());
        if (r.activity().lastBatchMillis() == null) {
            o.addNull("lastBatchMillis");
        } else {
            o.add("lastBatchMillis", r.activity().lastBatchMillis());
        }
        o.add("eventsPerSecond", Math.round(r.activity().eventsPerSecond() * 10) / 10.0);
        JsonArrayBuilder held = Json.createArrayBuilder();
        r.activity().heldDestinations().forEach(held::add);
        o.add("heldDestinations", held);
        JsonObjectBuilder c = Json.createObjectBuilder().add("published", r.counters().published())
                .add("failed", r.counters().failed()).add("deadLettered", r.counters().deadLettered())
                .add("batches", r.counters().batches());
        text(c, "lastError", r.counters().lastError());
        time(c, "lastErrorAt", r.counters().lastErrorAt());
        return o.add("counters", c);
    }

    /** The console's chart: the points of the last hour, the oldest first; null where a value is not known. */
    static JsonObject history(History.Series s) {
        JsonArrayBuilder points = Json.createArrayBuilder();
        for (History.Point p : s.points()) {
            JsonObjectBuilder o = Json.createObjectBuilder().add("at", p.at().toString());
            if (p.pending() == null) {
                o.addNull("pending");
            } else {
                o.add("pending", p.pending());
            }
            if (p.publishedPerSecond() == null) {
                o.addNull("publishedPerSecond");
            } else {
                o.add("publishedPerSecond", Math.round(p.publishedPerSecond() * 10) / 10.0);
            }
            points.add(o.add("state", p.state()));
        }
        return Json.createObjectBuilder().add("now", s.now().toString()).add("stepSeconds", s.step().toSeconds())
                .add("windowSeconds", s.window().toSeconds()).add("maxPoints", s.capacity()).add("points", points)
                .build();
    }

    /** Every relay of the outbox (schema V13), as this relay's last heartbeat read it. */
    static JsonObject fleet(RelayOperations.FleetView f) {
        JsonArrayBuilder relays = Json.createArrayBuilder();
        for (RelayOperations.FleetRelay r : f.relays()) {
            var m = r.member();
            JsonObjectBuilder o = Json.createObjectBuilder().add("server", m.who().server())
                    .add("application", m.who().application()).add("name", r.name()).add("local", r.local())
                    .add("self", r.self()).add("state", r.shownState()).add("missing", m.seen().missing())
                    .add("seenSecondsAgo", m.seen().ago().toSeconds()).add("pausedLocally", m.pausedLocally())
                    .add("published", m.tally().published()).add("failed", m.tally().failed())
                    .add("deadLettered", m.tally().deadLettered());
            time(o, "lastSeen", m.seen().lastSeen());
            time(o, "startedAt", m.seen().startedAt());
            text(o, "lastError", m.tally().lastError());
            relays.add(o);
        }
        JsonObjectBuilder o = Json.createObjectBuilder().add("member", f.member()).add("paused", f.paused())
                .add("epoch", f.epoch());
        text(o, "changedBy", f.changedBy());
        time(o, "changedAt", f.changedAt());
        return o.add("relays", relays).build();
    }

    static JsonObject fleetChange(RelayOperations.FleetChange c) {
        JsonArrayBuilder acknowledged = Json.createArrayBuilder();
        c.acknowledged().forEach(acknowledged::add);
        JsonArrayBuilder lagging = Json.createArrayBuilder();
        c.lagging().forEach(lagging::add);
        JsonObjectBuilder o = Json.createObjectBuilder().add("paused", c.paused()).add("epoch", c.epoch())
                .add("by", c.by());
        time(o, "at", c.at());
        return o.add("acknowledged", acknowledged).add("lagging", lagging).build();
    }

    static JsonObject page(DeadLetterPage page, long matching) {
        JsonArrayBuilder items = Json.createArrayBuilder();
        for (DeadLetter d : page.items()) {
            items.add(deadLetter(d));
        }
        JsonObjectBuilder o = Json.createObjectBuilder().add("items", items).add("matching", matching);
        if (page.nextAfterSeq() == null) {
            o.addNull("nextAfter");
        } else {
            o.add("nextAfter", page.nextAfterSeq());
        }
        return o.build();
    }

    static JsonObjectBuilder deadLetter(DeadLetter d) {
        JsonObjectBuilder o = Json.createObjectBuilder().add("id", d.id().toString()).add("seq", d.seq())
                .add("aggregateType", d.event().aggregateType()).add("aggregateId", d.event().aggregateId())
                .add("eventType", d.event().eventType()).add("attempts", d.outcome().attempts());
        time(o, "createdAt", d.event().createdAt());
        time(o, "deadAt", d.outcome().deadAt());
        text(o, "lastError", d.outcome().lastError());
        text(o, "payload", d.payload());
        return o.add("payloadCut", d.payloadCut());
    }

    static JsonObject error(String field, String message) {
        JsonObjectBuilder o = Json.createObjectBuilder();
        text(o, "field", field);
        return o.add("error", message).build();
    }

    static void time(JsonObjectBuilder o, String name, Instant at) {
        if (at == null) {
            o.addNull(name);
        } else {
            o.add(name, at.toString());
        }
    }

    static void text(JsonObjectBuilder o, String name, String value) {
        if (value == null) {
            o.addNull(name);
        } else {
            o.add(name, value);
        }
    }
}
