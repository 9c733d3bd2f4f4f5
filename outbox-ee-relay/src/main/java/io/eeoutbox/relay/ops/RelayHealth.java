package io.eeoutbox.relay.ops;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.RelayListener;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * The relay's health, decided from what it reports, without any health API (the MicroProfile Health
 * checks only translate it).
 *
 * <p><b>Readiness</b> is DOWN only when the application cannot write: the database could not be reached (the
 * relay's loop failed ({@link #relayError}) or the gauge query failed, and neither has worked since) for at
 * least {@link OpsConfig#unreachableThreshold()}. A broker that cannot be reached never makes it DOWN: riding
 * through a broker outage is what the outbox is for, and taking the application out of rotation (Kubernetes,
 * a load balancer) would stop the business writes during exactly that outage. The broker's state is in the
 * check's data instead ({@code broker}: "every publish failing since ..." once every publish attempt failed,
 * for at least two different events, and none succeeded since; one event the broker keeps refusing is a
 * poison message, shown by the failure counters and dead letters), and the outage shows in the metrics
 * (pending, oldest pending age, failures), the log and the MBean.
 * <b>Liveness</b> is DOWN when the relay's loop has neither started a drain nor completed a batch for
 * {@link OpsConfig#livenessThreshold(Duration) a multiple of its poll interval}, unless a batch is being
 * published and its lease has not run out: a broker that takes its time (Kafka waiting for every in-sync
 * replica, a send retried until the delivery timeout) makes a batch last longer than that multiple, and a
 * liveness probe that restarted the server then would stop the business writes for nothing. A publish past its
 * lease is stuck, and counts as silence. A paused relay is alive (an operator paused it on purpose); a relay
 * that does not run in this application is neither checked nor reported DOWN.
 */
public final class RelayHealth implements RelayListener, GaugeRefresher.Observer {

    private final Clock clock;
    private final OpsConfig config;
    private final Instant createdAt;

    private final Object lock = new Object();
    private Instant databaseDownSince;
    private String databaseError;
    private Instant brokerFailingSince;
    private String brokerError;
    private final Set<UUID> brokerFailedEvents = new HashSet<>();
    private Instant lastLoopAt;
    private Instant lastActivityAt;
    private boolean errorSinceLastLoop;

    public RelayHealth(Clock clock, OpsConfig config) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.config = Objects.requireNonNull(config, "config");
        this.createdAt = clock.instant();
    }

    /** UP or DOWN, with details for the health endpoint's {@code data}. */
    public record Report(boolean up, Map<String, Object> data) {
        public Report {
            data = Collections.unmodifiableMap(new LinkedHashMap<>(data));
        }
    }

    // --- what the relay reports ---------------------------------------------------------------

    @Override
    public void loopRan(Instant at) {
        synchronized (lock) {
            if (lastLoopAt != null && !errorSinceLastLoop) {
                databaseUp(); // the previous loop ended without a database error
            }
            errorSinceLastLoop = false;
            lastLoopAt = at;
            lastActivityAt = at;
        }
    }

    @Override
    public void relayError(Throwable cause) {
        synchronized (lock) {
            errorSinceLastLoop = true;
            databaseDown(cause);
        }
    }

    @Override
    public void batchCompleted(int claimed, int published, int failed, Duration elapsed) {
        synchronized (lock) {
            lastActivityAt = clock.instant();
            databaseUp(); // claimed and completed
        }
    }

    @Override
    public void published(OutboxMessage message) {
        synchronized (lock) {
            brokerFailingSince = null;
            brokerError = null;
            brokerFailedEvents.clear();
        }
    }

    @Override
    public void failed(OutboxMessage message, Throwable cause, Instant retryAfter) {
        synchronized (lock) {
            if (brokerFailingSince == null) {
                brokerFailingSince = clock.instant();
            }
            brokerError = describe(cause);
            if (brokerFailedEvents.size() < 2) {
                brokerFailedEvents.add(message.id());
            }
        }
    }

    @Override
    public void refreshed(Instant at) {
        synchronized (lock) {
            databaseUp();
        }
    }

    @Override
    public void refreshFailed(Throwable cause, Instant at) {
        synchronized (lock) {
            databaseDown(cause);
        }
    }

    private void databaseUp() {
        databaseDownSince = null;
        databaseError = null;
    }

    private void databaseDown(Throwable cause) {
        if (databaseDownSince == null) {
            databaseDownSince = clock.instant();
        }
        databaseError = describe(cause);
    }

    // --- the checks ----------------------------------------------------------------------------

    /** Readiness now. */
    public Report readiness() {
        return readiness(List.of());
    }

    /**
     * Readiness now.
     *
     * @param heldDestinations the destinations that cannot take messages now (data only: never DOWN for them)
     */
    public Report readiness(List<String> heldDestinations) {
        Instant now = clock.instant();
        Map<String, Object> data = new LinkedHashMap<>();
        boolean up = true;
        synchronized (lock) {
            if (databaseDownSince == null) {
                data.put("database", "reachable");
            } else {
                Duration down = Duration.between(databaseDownSince, now);
                boolean tooLong = down.compareTo(config.unreachableThreshold()) >= 0;
                up = !tooLong;
                data.put("database", "unreachable since " + databaseDownSince + " (" + seconds(down) + " s)");
                data.put("databaseError", databaseError);
            }
            boolean brokerDown = brokerFailingSince != null && brokerFailedEvents.size() >= 2;
            if (!brokerDown) {
                data.put("broker", "reachable");
            } else {
                Duration down = Duration.between(brokerFailingSince, now); // data only: never DOWN for the broker
                data.put("broker", "every publish failing since " + brokerFailingSince + " (" + seconds(down) + " s)");
                data.put("brokerError", brokerError);
            }
        }
        if (!heldDestinations.isEmpty()) {
            data.put("heldDestinations", String.join("; ", heldDestinations));
        }
        data.put("threshold", config.unreachableThreshold().toString());
        return new Report(up, data);
    }

    /**
     * Liveness now.
     *
     * @param running      whether the relay runs in this application
     * @param paused       whether an operator paused it
     * @param pollInterval its fallback poll interval in force now
     */
    public Report liveness(boolean running, boolean paused, Duration pollInterval) {
        return liveness(running, paused, pollInterval, null);
    }

    /**
     * Liveness now.
     *
     * @param running         whether the relay runs in this application
     * @param paused          whether an operator paused it
     * @param pollInterval    its fallback poll interval in force now
     * @param publishingUntil the lease end of the batch it is publishing now, or null when it publishes none
     */
    public Report liveness(boolean running, boolean paused, Duration pollInterval, Instant publishingUntil) {
        Instant now = clock.instant();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("running", running);
        data.put("paused", paused);
        if (!running) {
            return new Report(true, data);
        }
        Instant last;
        Instant loop;
        synchronized (lock) {
            last = lastActivityAt != null ? lastActivityAt : createdAt;
            loop = lastLoopAt;
        }
        Duration silent = Duration.between(last, now);
        Duration threshold = config.livenessThreshold(pollInterval);
        data.put("lastLoopAt", loop == null ? "never" : loop.toString());
        data.put("silentSeconds", seconds(silent));
        data.put("threshold", threshold.toString());
        boolean publishing = publishingUntil != null && !now.isAfter(publishingUntil);
        if (publishingUntil != null) {
            data.put("publishingUntil", publishingUntil.toString());
        }
        boolean up = paused || publishing || silent.compareTo(threshold) <= 0;
        return new Report(up, data);
    }

    private static long seconds(Duration d) {
        return Math.max(0, d.getSeconds());
    }

    /** The exception's type and message, one line: never a payload (the relay's exceptions carry none). */
    static String describe(Throwable t) {
        if (t == null) {
            return "unknown";
        }
        String text = t.getClass().getName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
        text = text.replaceAll("[\\r\\n\\t]+", " ");
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }
}
