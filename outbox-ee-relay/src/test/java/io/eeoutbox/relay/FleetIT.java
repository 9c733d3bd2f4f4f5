package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.ops.RelayOperations;
import io.eeoutbox.relay.store.FleetStore;
import io.eeoutbox.spi.PublishResult;
import io.eeoutbox.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every relay of an outbox in one view, pause all and resume all (schema V13), with relays of two "servers" on one real
 * PostgreSQL database: each sees the other, a pause all is acknowledged by both and nothing is published after it, a
 * relay started while the fleet is paused stays paused, resume all leaves a relay paused on its own paused, a relay
 * that stops beating is shown missing and its row is cleaned after the retention. docs/operations.md, "Every relay of
 * the outbox".
 */
class FleetIT {

    private static final Duration BEAT = Duration.ofMillis(200);

    private TestDatabase.Db db;
    private final List<ScheduledExecutorService> executors = new ArrayList<>();
    private final List<OutboxRelay> relays = new ArrayList<>();
    private final AtomicBoolean writing = new AtomicBoolean();
    private Thread writer;

    @BeforeEach
    void setUp() {
        db = TestDatabase.get().createDatabase("fleet_it", false);
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        writing.set(false);
        if (writer != null) {
            writer.join(10_000);
        }
        relays.forEach(r -> r.stop(Duration.ofSeconds(10)));
        executors.forEach(ScheduledExecutorService::shutdownNow);
    }

    /** A relay of application {@code app} on server {@code server}, publishing slowly enough to be caught mid-batch. */
    private Member member(String server, String name) {
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
        executors.add(executor);
        SlowPublisher publisher = new SlowPublisher();
        RelayConfig config = RelayIt.config(name).set(RelaySettings.BATCH_SIZE, 20)
                .set(RelaySettings.FLEET_HEARTBEAT_INTERVAL, BEAT).build();
        OutboxRelay relay = OutboxRelay.builder().config(config).dataSource(db.dataSource()).executor(executor)
                .publisher(publisher).fleet(new FleetStore.Identity(server, "orders", name, UUID.randomUUID())).build();
        relays.add(relay);
        return new Member(relay, new RelayOperations(relay), publisher, executor);
    }

    private record Member(OutboxRelay relay, RelayOperations ops, SlowPublisher publisher,
                          ScheduledExecutorService executor) {
    }

    /** Records what it published, 2 ms a message: a batch of 20 takes about 40 ms. */
    static final class SlowPublisher extends RecordingPublisher {
        @Override
        public PublishResult publishAll(List<OutboxMessage> batch) {
            try {
                Thread.sleep(2L * batch.size());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return super.publishAll(batch);
        }
    }

    /** Writes an event every 2 ms until the test ends: the relays are busy when the fleet is paused. */
    private void keepWriting() {
        writing.set(true);
        writer = new Thread(() -> {
            int i = 0;
            while (writing.get()) {
                RelayIt.writeCommitted(db, 1, n -> new RelayIt.Event("order", "o" + n, "order.created"));
                i++;
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "fleet-it-writer");
        writer.start();
    }

    private static List<String> names(RelayOperations.FleetView view) {
        return view.relays().stream().map(r -> r.member().who().server() + "/" + r.name()).toList();
    }

    /** Waits until every relay's row was written five heartbeats after now (by the database's clock). */
    private void fiveHeartbeatsPass() throws InterruptedException {
        long until = db.queryLong("SELECT (extract(epoch FROM now()) * 1000)::bigint") + BEAT.multipliedBy(5).toMillis();
        RelayIt.await(Duration.ofSeconds(30), "five heartbeats of every running relay", () -> db.queryLong(
                "SELECT count(*) FROM outbox_relays WHERE state <> 'stopped' AND last_seen < to_timestamp(" + until
                        + " / 1000.0)") == 0);
    }

    private static boolean allRunning(RelayOperations.FleetView view, int relays) {
        return view.relays().size() == relays && view.relays().stream().allMatch(r -> r.shownState().equals("running"));
    }

    @Test
    void eachRelaySeesTheOtherMarkedLocalOrRemote() throws Exception {
        Member a = member("host-a/node-1", "relay-a");
        Member b = member("host-b/node-2", "relay-b");
        a.relay().start();
        b.relay().start();
        RelayIt.await(Duration.ofSeconds(10), "both relays running in each view (at most a heartbeat old)", () ->
                allRunning(a.ops().fleet(), 2) && allRunning(b.ops().fleet(), 2));

        RelayOperations.FleetView seenByA = a.ops().fleet();
        assertThat(seenByA.member()).isTrue();
        assertThat(names(seenByA)).containsExactly("host-a/node-1/relay-a", "host-b/node-2/relay-b");
        assertThat(seenByA.relays().get(0).local()).isTrue();
        assertThat(seenByA.relays().get(0).self()).isTrue();
        assertThat(seenByA.relays().get(1).local()).isFalse();
        assertThat(seenByA.relays().get(1).member().seen().missing()).isFalse();
        assertThat(b.ops().fleet().relays().get(1).self()).isTrue();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_relays")).isEqualTo(2);
    }

    @Test
    void pauseAllIsAcknowledgedByEveryRelayAndNothingIsPublishedAfterIt() throws Exception {
        Member a = member("host-a/node-1", "relay-a");
        Member b = member("host-b/node-2", "relay-b");
        a.relay().start();
        b.relay().start();
        keepWriting();
        RelayIt.await(Duration.ofSeconds(20), "both relays publishing", () ->
                a.publisher().published.size() > 50 && b.publisher().published.size() > 50);

        RelayOperations.FleetChange pause = a.ops().pauseAll("alice");
        long acknowledgedAtMicros = db.queryLong("SELECT (extract(epoch FROM now()) * 1000000)::bigint");
        int publishedByA = a.publisher().published.size();
        int publishedByB = b.publisher().published.size();

        assertThat(pause.acknowledged()).containsExactly("host-a/node-1/orders/relay-a", "host-b/node-2/orders/relay-b");
        assertThat(pause.lagging()).isEmpty();
        assertThat(pause.by()).isEqualTo("alice");
        fiveHeartbeatsPass(); // events keep coming meanwhile
        assertThat(a.publisher().published).as("published by relay-a after its acknowledgement").hasSize(publishedByA);
        assertThat(b.publisher().published).as("published by relay-b after its acknowledgement").hasSize(publishedByB);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE processed_at > to_timestamp("
                + acknowledgedAtMicros + " / 1000000.0)"))
                .as("rows completed after the acknowledgement").isZero();
        assertThat(RelayIt.pending(db)).isPositive();
        assertThat(a.relay().state()).isEqualTo("fleet-paused");
        assertThat(b.ops().state()).isEqualTo("fleet-paused");
        RelayIt.await(Duration.ofSeconds(5), "the pause in both views", () -> a.ops().fleet().paused()
                && a.ops().fleet().relays().stream().allMatch(r -> r.shownState().equals("fleet-paused")));
        assertThat(a.ops().fleet().changedBy()).isEqualTo("alice");

        writing.set(false);
        writer.join(10_000);
        RelayOperations.FleetChange resume = b.ops().resumeAll("bob");
        assertThat(resume.epoch()).isEqualTo(pause.epoch() + 1);
        assertThat(resume.acknowledged()).hasSize(2);
        RelayIt.await(Duration.ofSeconds(30), "the backlog published after resume all", () -> RelayIt.pending(db) == 0);
        assertThat(a.publisher().published.size() + b.publisher().published.size())
                .isGreaterThan(publishedByA + publishedByB);
        assertThat(List.of(a.relay().state(), b.relay().state())).containsOnly("running");
        assertThat(a.ops().fleet().changedBy()).isEqualTo("bob");
    }

    @Test
    void aRelayStartedWhileTheFleetIsPausedStaysPausedUntilResumeAll() throws Exception {
        Member a = member("host-a/node-1", "relay-a");
        a.relay().start();
        RelayIt.await(Duration.ofSeconds(10), "relay-a in the fleet", () -> a.ops().fleet().relays().size() == 1);
        a.ops().pauseAll("alice");
        RelayIt.writeCommitted(db, 30, i -> new RelayIt.Event("order", "o" + i, "order.created"));

        Member c = member("host-c/node-3", "relay-c");
        c.relay().start();
        RelayIt.await(Duration.ofSeconds(10), "relay-c in the fleet", () -> c.ops().fleet().relays().size() == 2);
        fiveHeartbeatsPass();
        assertThat(c.publisher().published).as("published by a relay started while the fleet is paused").isEmpty();
        assertThat(c.relay().state()).isEqualTo("fleet-paused");
        assertThat(RelayIt.pending(db)).isEqualTo(30);

        RelayOperations.FleetChange resume = a.ops().resumeAll("alice");
        assertThat(resume.acknowledged()).hasSize(2);
        RelayIt.await(Duration.ofSeconds(10), "published after resume all", () -> RelayIt.pending(db) == 0);
    }

    @Test
    void resumeAllLeavesARelayPausedOnItsOwnPaused() throws Exception {
        Member a = member("host-a/node-1", "relay-a");
        Member b = member("host-b/node-2", "relay-b");
        a.relay().start();
        b.relay().start();
        RelayIt.await(Duration.ofSeconds(10), "both in the fleet", () -> a.ops().fleet().relays().size() == 2);
        b.ops().pause();
        a.ops().pauseAll("alice");
        a.ops().resumeAll("alice");
        RelayIt.writeCommitted(db, 20, i -> new RelayIt.Event("order", "o" + i, "order.created"));

        RelayIt.await(Duration.ofSeconds(10), "relay-a publishes", () -> RelayIt.pending(db) == 0);
        assertThat(b.publisher().published).isEmpty();
        assertThat(b.relay().state()).isEqualTo("paused");
        RelayIt.await(Duration.ofSeconds(5), "relay-b shown paused on its own", () -> a.ops().fleet().relays().stream()
                .anyMatch(r -> r.name().equals("relay-b") && r.shownState().equals("paused")));
    }

    @Test
    void aRelayThatStopsBeatingIsShownMissingAndARelayStoppedCleanlyIsNot() throws Exception {
        Member a = member("host-a/node-1", "relay-a");
        Member b = member("host-b/node-2", "relay-b");
        Member c = member("host-c/node-3", "relay-c");
        a.relay().start();
        b.relay().start();
        c.relay().start();
        RelayIt.await(Duration.ofSeconds(10), "three in the fleet", () -> a.ops().fleet().relays().size() == 3);

        b.executor().shutdownNow(); // relay-b's process dies: no more heartbeats, no clean stop
        c.relay().stop(Duration.ofSeconds(5));
        RelayIt.await(Duration.ofSeconds(10), "relay-b shown missing", () -> a.ops().fleet().relays().stream()
                .anyMatch(r -> r.name().equals("relay-b") && r.member().seen().missing()));
        RelayOperations.FleetView view = a.ops().fleet();
        assertThat(view.relays()).filteredOn(r -> r.name().equals("relay-c"))
                .singleElement().satisfies(r -> {
                    assertThat(r.shownState()).isEqualTo("stopped");
                    assertThat(r.member().seen().missing()).isFalse();
                });
        // a pause all does not wait for a missing relay
        RelayOperations.FleetChange pause = a.ops().pauseAll("alice");
        assertThat(pause.acknowledged()).containsExactly("host-a/node-1/orders/relay-a");
        assertThat(pause.lagging()).isEmpty();
    }

    @Test
    void rowsOfRelaysUnseenForLongerThanTheRetentionAreDeletedByTheHeartbeat() throws Exception {
        // a relay that died two hours ago, and one seen a minute ago (missing, but within the retention of PT1H)
        for (String[] r : new String[][] {{"relay-z", "2 hours"}, {"relay-y", "1 minute"}}) {
            db.execute("INSERT INTO outbox_relays (server, application, relay_name, instance, started_at, last_seen,"
                    + " interval_ms, state, paused_local, published, failed, dead_lettered, fleet_epoch_seen) VALUES"
                    + " ('host-z/old', 'orders', '" + r[0] + "', gen_random_uuid(), now() - interval '3 hours',"
                    + " now() - interval '" + r[1] + "', 5000, 'running', false, 7, 0, 0, 0)");
        }
        Member a = member("host-a/node-1", "relay-a");
        a.relay().start();
        RelayIt.await(Duration.ofSeconds(10), "the old relay's row deleted", () ->
                db.queryLong("SELECT count(*) FROM outbox_relays WHERE relay_name = 'relay-z'") == 0);
        RelayIt.await(Duration.ofSeconds(10), "relay-y shown missing", () -> a.ops().fleet().relays().stream()
                .anyMatch(r -> r.name().equals("relay-y") && r.member().seen().missing()));
        RelayIt.await(Duration.ofSeconds(10), "the view without the old relay", () ->
                names(a.ops().fleet()).equals(List.of("host-a/node-1/relay-a", "host-z/old/relay-y")));
    }

    @Test
    void withoutSchemaV13TheRelayRunsOnAndPauseAllSaysWhy() throws Exception {
        db.execute("DROP TABLE outbox_relays");
        Member a = member("host-a/node-1", "relay-a");
        a.relay().start();
        RelayIt.writeCommitted(db, 10, i -> new RelayIt.Event("order", "o" + i, "order.created"));
        RelayIt.await(Duration.ofSeconds(10), "published without the fleet", () -> RelayIt.pending(db) == 0);
        assertThat(a.ops().fleet().member()).isFalse();
        assertThat(a.relay().state()).isEqualTo("running");
        assertThatThrownBy(() -> a.ops().pauseAll("alice")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("schema V13");
    }
}
