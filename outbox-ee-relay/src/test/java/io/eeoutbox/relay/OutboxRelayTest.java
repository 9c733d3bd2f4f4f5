package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.ops.RelayOperations;
import io.eeoutbox.relay.store.FakeOutboxStore;
import io.eeoutbox.spi.RelayListener;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The relay's lifecycle on a real executor, against the in-memory store; waits on latches and conditions. */
class OutboxRelayTest {

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    private final FakeOutboxStore store = new FakeOutboxStore();
    private final RecordingPublisher publisher = new RecordingPublisher();
    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
    private OutboxRelay relay;

    @AfterEach
    void tearDown() {
        if (relay != null) {
            relay.stop(Duration.ofSeconds(5));
        }
        executor.shutdownNow();
    }

    private OutboxRelay relay(RelayListener listener, Duration poll) {
        RelayConfig config = RelayConfig.builder().set(RelaySettings.NAME, "unit").set(RelaySettings.NOTIFY_ENABLED, false).set(RelaySettings.POLL_INTERVAL, poll).build();
        relay = OutboxRelay.builder().config(config).store(store).executor(executor).clock(clock)
                .publisher(publisher).listener(listener).build();
        return relay;
    }

    @Test
    void drainsAtStartAndOnEveryWakeUp() throws Exception {
        store.insert("order", "o1", "order.created");
        CountDownLatch first = new CountDownLatch(1);
        CountDownLatch second = new CountDownLatch(2);
        OutboxRelay r = relay(new RelayListener() {
            @Override
            public void published(OutboxMessage message) {
                first.countDown();
                second.countDown();
            }
        }, Duration.ofHours(1));
        r.start();
        assertThat(first.await(5, TimeUnit.SECONDS)).isTrue();
        store.insert("order", "o2", "order.created");
        r.wakeUp();
        assertThat(second.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(publisher.published).extracting(OutboxMessage::aggregateId).containsExactly("o1", "o2");
    }

    @Test
    void withoutNotifyTheLooksAfterADrainWithEventsComeAtDoublingIntervals() throws Exception {
        store.insert("order", "o1", "order.created");
        CountDownLatch both = new CountDownLatch(2);
        List<Long> looks = Collections.synchronizedList(new ArrayList<>());
        RelayConfig config = RelayConfig.builder().set(RelaySettings.NAME, "unit").set(RelaySettings.NOTIFY_ENABLED, false).set(RelaySettings.POLL_INTERVAL, Duration.ofHours(1))
                .set(RelaySettings.BUSY_POLL_INTERVAL, Duration.ofMillis(10)).build();
        relay = OutboxRelay.builder().config(config).store(store).executor(executor).clock(clock)
                .publisher(publisher).listener(new RelayListener() {
                    @Override
                    public void published(OutboxMessage message) {
                        if (message.aggregateId().equals("o1")) {
                            // committed while o1's drain runs, after its claim, and nobody wakes the relay:
                            // with an hour's fallback poll only the busy poll after this drain can find it
                            store.insert("order", "o2", "order.created");
                        }
                        both.countDown();
                    }

                    @Override
                    public void loopRan(Instant at) {
                        looks.add(System.nanoTime());
                    }
                }).build();
        relay.start();
        assertThat(both.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(publisher.published).extracting(OutboxMessage::aggregateId).containsExactly("o1", "o2");
        // The looks after o2's drain find nothing, and without NOTIFY they come at doubling intervals from the
        // busy poll's 10 ms towards the hour's poll: the next five span at least 20 + 40 + 80 + 160 ms (a delayed
        // executor only stretches them), where a busy poll that never grew would make them 40 ms apart in all.
        int afterSecond = looks.size();
        RelayIt.await(Duration.ofSeconds(10), "five more looks", () -> looks.size() >= afterSecond + 5);
        long spanMillis = TimeUnit.NANOSECONDS.toMillis(looks.get(afterSecond + 4) - looks.get(afterSecond));
        assertThat(spanMillis).as("five looks after the last events, first to last").isGreaterThanOrEqualTo(150);
    }

    @Test
    void aDatabaseOutageIsLoggedOnceReportedAndOverByItself() throws Exception {
        List<LogRecord> warnings = Collections.synchronizedList(new ArrayList<>());
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger(io.eeoutbox.relay.backoff.DatabaseBackoff.class.getName());
        logger.addHandler(handler);
        try {
            store.insert("order", "o1", "order.created");
            store.failNextStatements.set(4);
            AtomicInteger errors = new AtomicInteger();
            CountDownLatch published = new CountDownLatch(1);
            OutboxRelay r = relay(new RelayListener() {
                @Override
                public void relayError(Throwable cause) {
                    errors.incrementAndGet();
                }

                @Override
                public void published(OutboxMessage message) {
                    published.countDown();
                }
            }, Duration.ofMillis(20));
            r.start();
            assertThat(published.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(errors).hasValue(4);
            assertThat(warnings).filteredOn(w -> w.getMessage().contains("database error")).hasSize(1);
            assertThat(warnings.get(0).getThrown()).hasMessageContaining("connection refused");
            assertThat(r.counters().lastError()).contains("connection refused");
        } finally {
            logger.removeHandler(handler);
        }
    }

    @Test
    void stopLetsTheBatchInFlightCompleteAndClaimsNothingNew() throws Exception {
        for (int i = 0; i < 3; i++) {
            store.insert("order", "o" + i, "order.created");
        }
        CountDownLatch publishing = new CountDownLatch(1);
        CountDownLatch brokerDone = new CountDownLatch(1);
        publisher.beforeBatch(batch -> {
            publishing.countDown();
            try {
                brokerDone.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        OutboxRelay r = relay(new RelayListener() { }, Duration.ofHours(1));
        r.start();
        assertThat(publishing.await(5, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(() -> r.stop(Duration.ofSeconds(5)));
        store.insert("order", "late", "order.created");
        brokerDone.countDown();
        assertThat(stopped.get(10, TimeUnit.SECONDS)).isTrue();

        assertThat(store.count(x -> x.processedAt != null)).isEqualTo(3);
        assertThat(store.count(x -> x.claimToken != null)).isZero();
        assertThat(publisher.published).extracting(OutboxMessage::aggregateId).doesNotContain("late");
        assertThat(r.isRunning()).isFalse();
    }

    @Test
    void aPausedRelayClaimsNothingUntilResumed() throws Exception {
        CountDownLatch published = new CountDownLatch(1);
        OutboxRelay r = relay(new RelayListener() {
            @Override
            public void published(OutboxMessage message) {
                published.countDown();
            }
        }, Duration.ofHours(1));
        r.pause();
        r.start();
        store.insert("order", "o1", "order.created");
        r.wakeUp();
        r.runNow();
        assertThat(published.await(200, TimeUnit.MILLISECONDS)).isFalse();
        r.resume();
        assertThat(published.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void retryOnRequestMakesADeadLetterDueAndWakesTheRelay() throws Exception {
        FakeOutboxStore.Row row = store.insert("order", "o1", "order.created");
        row.attempts = 10;
        row.deadAt = clock.instant();
        CountDownLatch published = new CountDownLatch(1);
        OutboxRelay r = relay(new RelayListener() {
            @Override
            public void published(OutboxMessage message) {
                published.countDown();
            }
        }, Duration.ofHours(1));
        r.start();
        assertThat(new RelayOperations(r).stats().dead()).isEqualTo(1);
        assertThat(new RelayOperations(r).retryDeadLetter(row.id)).isTrue();
        assertThat(published.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(new RelayOperations(r).retryDeadLetter(row.id)).isFalse();
    }

    @Test
    void afterADatabaseErrorWakeUpsWaitForTheBackoffButRunNowDrainsAtOnce() throws Exception {
        store.failNextStatements.set(1);
        CountDownLatch failed = new CountDownLatch(1);
        CountDownLatch published = new CountDownLatch(1);
        AtomicInteger loops = new AtomicInteger();
        OutboxRelay r = relay(new RelayListener() {
            @Override
            public void relayError(Throwable cause) {
                failed.countDown();
            }

            @Override
            public void loopRan(Instant at) {
                loops.incrementAndGet();
            }

            @Override
            public void published(OutboxMessage message) {
                published.countDown();
            }
        }, Duration.ofHours(1));
        r.start();
        assertThat(failed.await(5, TimeUnit.SECONDS)).isTrue();
        store.insert("order", "o1", "order.created");
        r.wakeUp(); // backing off: an ordinary wake-up does not hammer a failing database
        assertThat(published.await(200, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(loops).hasValue(1);
        r.runNow(); // the NOTIFY listener reconnected: the database answers again
        assertThat(published.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void whileTheBrokerIsDownWakeUpsClaimNothingTheLoopStaysAliveAndRunNowTriesAtOnce() throws Exception {
        for (int i = 0; i < 5; i++) {
            store.insert("order", "o" + i, "order.created");
        }
        java.util.concurrent.atomic.AtomicBoolean brokerUp = new java.util.concurrent.atomic.AtomicBoolean();
        AtomicInteger batchesTried = new AtomicInteger();
        List<Instant> loops = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch published = new CountDownLatch(6);
        io.eeoutbox.spi.Publisher outage = new io.eeoutbox.spi.Publisher() {
            @Override
            public io.eeoutbox.spi.PublishResult publishAll(List<OutboxMessage> batch) {
                batchesTried.incrementAndGet();
                return io.eeoutbox.spi.Publisher.super.publishAll(batch);
            }

            @Override
            public void publish(OutboxMessage message) throws Exception {
                if (!brokerUp.get()) {
                    throw new io.eeoutbox.spi.BrokerUnavailableException("connection refused", null);
                }
            }
        };
        RelayConfig config = RelayConfig.builder().set(RelaySettings.NAME, "unit").set(RelaySettings.NOTIFY_ENABLED, false).set(RelaySettings.POLL_INTERVAL, Duration.ofHours(1)).build();
        relay = OutboxRelay.builder().config(config).store(store).executor(executor).clock(clock).publisher(outage)
                .listener(new RelayListener() {
                    @Override
                    public void loopRan(Instant at) {
                        loops.add(at);
                    }

                    @Override
                    public void published(OutboxMessage message) {
                        published.countDown();
                    }
                }).build();
        relay.start();
        RelayIt.await(Duration.ofSeconds(5), "the first batch deferred", () -> store.count(r -> r.retryAfter != null) == 5);

        // The clock stands still: the deferral's retry time (1 s on, give or take the 20% jitter) has not come.
        // Two wake-ups, one after the other: the second loop starts only once the first has ended
        // (drains never overlap), so whatever the first would have claimed is claimed by then.
        int loopsBefore = loops.size();
        relay.wakeUp();
        RelayIt.await(Duration.ofSeconds(5), "the first loop", () -> loops.size() > loopsBefore);
        relay.wakeUp();
        RelayIt.await(Duration.ofSeconds(5), "the second loop", () -> loops.size() > loopsBefore + 1);
        assertThat(batchesTried.get()).as("a wake-up during the outage claims nothing").isEqualTo(1);

        // The broker is back, and a new event comes: the operator's "try now" ignores the wait.
        store.insert("order", "o5", "order.created");
        brokerUp.set(true);
        relay.runNow();
        RelayIt.await(Duration.ofSeconds(5), "o5 published", () -> published.getCount() == 5);
        assertThat(batchesTried.get()).isEqualTo(2);

        // The deferred rows are due at their retry time, and the next wake-up publishes them.
        clock.set(clock.instant().plusSeconds(2));
        relay.wakeUp();
        assertThat(published.await(5, TimeUnit.SECONDS)).isTrue();
    }
}
