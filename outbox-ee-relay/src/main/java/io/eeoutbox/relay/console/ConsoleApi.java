package io.eeoutbox.relay.console;

import io.eeoutbox.relay.ops.OperatorInput;
import io.eeoutbox.relay.ops.OperatorInput.BadInput;
import io.eeoutbox.relay.ops.RelayOperations;
import io.eeoutbox.relay.store.DeadLetterFilter;
import io.eeoutbox.relay.store.OperatorQueries.DeadLetter;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The console's JSON API over {@link RelayOperations}: a thin adapter that parses a request's parameters or body
 * with {@link OperatorInput}, calls the service and writes its answer as JSON ({@link ConsoleJson}). Who may call
 * (roles, CSRF, body size, media type) is {@link ConsoleServlet}'s business; every action is logged here with its
 * user and what it changed.
 */
final class ConsoleApi {

    /** The console's log, under the servlet's name as docs/console.md gives it (logging configurations name it). */
    private static final Logger LOG = Logger.getLogger(ConsoleServlet.class.getName());
    private static final int PAYLOAD_PREVIEW = 2000;
    private static final int MAX_TYPES = 50;

    /** Where the API finds the service of this application's relay. */
    @FunctionalInterface
    interface Source {
        RelayOperations operations() throws Unavailable;
    }

    /** The relay does not run in this application (disabled, or failed to start): 503. */
    static final class Unavailable extends Exception {
        Unavailable(String message) {
            super(message);
        }
    }

    /** A 4xx answer other than bad input (400): {@code status}, the {@code field} at fault (or null) and why. */
    static final class Refused extends Exception {
        final int status;
        final String field;

        Refused(int status, String field, String message) {
            super(message);
            this.status = status;
            this.field = field;
        }
    }

    private final Source source;

    ConsoleApi(Source source) {
        this.source = source;
    }

    /** A GET of {@code path} (below {@code /api}, {@code /api/session} excepted). */
    JsonObject read(String path, Map<String, String[]> params) throws BadInput, Refused, Unavailable, SQLException {
        switch (path) {
            case "/api/overview" -> {
                noParams(params);
                RelayOperations ops = source.operations();
                return ConsoleJson.overview(ops.relay(), ops.backlog(MAX_TYPES), ops.recentFailures(), ops.settings(),
                        ops.cdcSlot());
            }
            case "/api/history" -> {
                noParams(params);
                return ConsoleJson.history(source.operations().history());
            }
            case "/api/fleet" -> {
                noParams(params);
                return ConsoleJson.fleet(source.operations().fleet());
            }
            case "/api/dead-letters" -> {
                Function<String, String> p = single(params);
                OperatorInput.onlyKnown(params.keySet(), union(OperatorInput.FILTER_FIELDS, OperatorInput.PAGE_FIELDS));
                DeadLetterFilter filter = OperatorInput.filter(p);
                int limit = OperatorInput.limit(p.apply("limit"));
                long after = OperatorInput.after(p.apply("after"));
                RelayOperations ops = source.operations();
                return ConsoleJson.page(ops.deadLetters(filter, after, limit, PAYLOAD_PREVIEW),
                        ops.countDeadLetters(filter));
            }
            case "/api/dead-letters/count" -> {
                Function<String, String> p = single(params);
                OperatorInput.onlyKnown(params.keySet(), OperatorInput.FILTER_FIELDS);
                long n = source.operations().countDeadLetters(OperatorInput.filter(p));
                return Json.createObjectBuilder().add("matching", n).build();
            }
            default -> {
                String prefix = "/api/dead-letters/";
                if (path.startsWith(prefix) && path.indexOf('/', prefix.length()) < 0) {
                    noParams(params);
                    UUID id = OperatorInput.id("id", path.substring(prefix.length()));
                    Optional<DeadLetter> d = source.operations().deadLetter(id);
                    if (d.isEmpty()) {
                        throw new Refused(404, "id", "no dead letter with id " + id);
                    }
                    return ConsoleJson.deadLetter(d.get()).build();
                }
                throw nothingAt(path);
            }
        }
    }

    /** A POST of {@code path} with the JSON object {@code body}, by {@code user} (an admin whose token was checked). */
    JsonObject act(String path, Map<String, String[]> params, JsonObject body, String user)
            throws BadInput, Refused, Unavailable, SQLException {
        noParams(params);
        RelayOperations ops = source.operations();
        String relay = ops.name();
        switch (path) {
            case "/api/relay/pause", "/api/relay/resume", "/api/relay/run-now" -> {
                OperatorInput.onlyKnown(body.keySet(), Set.of());
                String action = path.substring("/api/relay/".length());
                String before = ops.relay().state();
                switch (action) {
                    case "pause" -> ops.pause();
                    case "resume" -> ops.resume();
                    default -> ops.runNow();
                }
                RelayOperations.RelayView now = ops.relay();
                LOG.info(() -> "outbox console: user=" + user + " action=" + action + " relay=" + relay + " state "
                        + before + " -> " + now.state());
                return ConsoleJson.relay(now).build();
            }
            case "/api/fleet/pause-all", "/api/fleet/resume-all" -> {
                OperatorInput.onlyKnown(body.keySet(), Set.of());
                boolean pause = path.endsWith("pause-all");
                String by = OperatorInput.requestedBy("console:" + user);
                RelayOperations.FleetChange c = pause ? ops.pauseAll(by) : ops.resumeAll(by);
                LOG.info(() -> "outbox console: user=" + user + " action=" + (pause ? "pause-all" : "resume-all")
                        + " relay=" + relay + " epoch=" + c.epoch() + " acknowledged=" + c.acknowledged()
                        + " lagging=" + c.lagging());
                return ConsoleJson.fleetChange(c);
            }
            case "/api/dead-letters/retry" -> {
                OperatorInput.onlyKnown(body.keySet(), OperatorInput.FILTER_FIELDS);
                DeadLetterFilter filter = OperatorInput.filter(members(body));
                int n = ops.retryDeadLetters(filter);
                LOG.info(() -> "outbox console: user=" + user + " action=retry-dead-letters relay=" + relay + " filter="
                        + filter + " retried=" + n);
                return Json.createObjectBuilder().add("retried", n).build();
            }
            case "/api/purge" -> {
                OperatorInput.onlyKnown(body.keySet(), Set.of("olderThan"));
                Duration age = OperatorInput.olderThan(members(body).apply("olderThan"));
                long n = ops.purgeProcessedOlderThan(age);
                LOG.info(() -> "outbox console: user=" + user + " action=purge relay=" + relay + " olderThan=" + age
                        + " deleted=" + n);
                return Json.createObjectBuilder().add("deleted", n).build();
            }
            default -> {
                String prefix = "/api/dead-letters/";
                if (path.startsWith(prefix) && path.endsWith("/retry")) {
                    OperatorInput.onlyKnown(body.keySet(), Set.of());
                    UUID id = OperatorInput.id("id", path.substring(prefix.length(), path.length() - "/retry".length()));
                    if (!ops.retryDeadLetter(id)) {
                        throw new Refused(404, "id", "no dead letter with id " + id);
                    }
                    LOG.info(() -> "outbox console: user=" + user + " action=retry-dead-letter relay=" + relay
                            + " event_id=" + id + " retried=1");
                    return Json.createObjectBuilder().add("retried", 1).build();
                }
                throw nothingAt(path);
            }
        }
    }

    static Refused nothingAt(String path) {
        return new Refused(404, null, "nothing at " + OperatorInput.abbreviate(path));
    }

    /** Query parameters as a single-valued lookup; a repeated parameter is refused. */
    static Function<String, String> single(Map<String, String[]> params) throws BadInput {
        for (Map.Entry<String, String[]> e : params.entrySet()) {
            if (e.getValue().length > 1) {
                throw new BadInput(e.getKey(), e.getKey() + " is given " + e.getValue().length + " times; give it once");
            }
        }
        return k -> {
            String[] v = params.get(k);
            return v == null ? null : v[0];
        };
    }

    /** A JSON object's members as strings; a member that is not a string (or null) is refused. */
    static Function<String, String> members(JsonObject body) throws BadInput {
        for (Map.Entry<String, JsonValue> e : body.entrySet()) {
            JsonValue.ValueType t = e.getValue().getValueType();
            if (t != JsonValue.ValueType.STRING && t != JsonValue.ValueType.NULL) {
                throw new BadInput(e.getKey(), e.getKey() + " must be a string, was " + t.toString().toLowerCase());
            }
        }
        return k -> body.get(k) instanceof JsonString s ? s.getString() : null;
    }

    static void noParams(Map<String, String[]> params) throws BadInput {
        OperatorInput.onlyKnown(params.keySet(), Set.of());
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> u = new HashSet<>(a);
        u.addAll(b);
        return u;
    }
}
