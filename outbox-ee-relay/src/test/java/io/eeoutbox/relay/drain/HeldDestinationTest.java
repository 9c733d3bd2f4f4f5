package io.eeoutbox.relay.drain;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.MutableClock;
import io.eeoutbox.relay.backoff.DestinationHolds;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.store.FakeOutboxStore;
import io.eeoutbox.spi.BackoffPolicy;
import io.eeoutbox.spi.BrokerUnavailableException;
import io.eeoutbox.spi.DestinationUnavailableException;
import io.eeoutbox.spi.PublishResult;
import io.eeoutbox.spi.Publisher;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * A destination that cannot take messages now (decision 0015) is held on its own: its rows are deferred without
 * counting attempts, one message per hold goes as a probe, and the other destinations keep flowing.
 */
class HeldDestinationTest {

    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
    /** Backoff without jitter: 1 s, 2 s, 4 s ... */
    private static final BackoffPolicy BACKOFF = BackoffPolicy.exponential(Duration.ofSeconds(1), 2.0,
            Duration.ofMinutes(5), 0.0, () -> 0.5);

    private final MutableClock clock = new MutableClock(T0);
    private final FakeOutboxStore store = new FakeOutboxStore();

    /** Routes by aggregate type; a destination in {@code full} refuses as unavailable; records what each took. */
    private final class TwoDestinations implements Publisher {
        final Set<String> full = ConcurrentHashMap.newKeySet();
        final Map<String, List<OutboxMessage>> taken = new ConcurrentHashMap<>();
        final Map<String, List<OutboxMessage>> offered = new ConcurrentHashMap<>();

        @Override
        public void publish(OutboxMessage message) {
            throw new UnsupportedOperationException();
        }

        @Override
        public PublishResult publishAll(List<OutboxMessage> batch) {
            Map<UUID, Throwable> failures = new LinkedHashMap<>();
            for (OutboxMessage m : batch) {
                String d = destinationOf(m);
                offered.computeIfAbsent(d, k -> Collections.synchronizedList(new ArrayList<>())).add(m);
                if (full.contains(d)) {
                    failures.put(m.id(), new DestinationUnavailableException(d, "queue " + d + " is full", null));
                } else {
                    taken.computeIfAbsent(d, k -> Collections.synchronizedList(new ArrayList<>())).add(m);
                }
            }
            return PublishResult.of(failures);
        }

        @Override
        public String destinationOf(OutboxMessage message) {
            return "queue-" + message.aggregateType();
        }

        int taken(String d) {
            return taken.getOrDefault(d, List.of()).size();
        }

        int offered(String d) {
            return offered.getOrDefault(d, List.of()).size();
        }
    }

    private DrainLoop loop(Publisher publisher, boolean ordered) {
        RelayConfig config = RelayConfig.builder().set(RelaySettings.NAME, "test").set(RelaySettings.BATCH_SIZE, 10)
                .set(RelaySettings.MAX_ATTEMPTS, 3).set(RelaySettings.ORDERED, ordered).build();
        return DrainLoop.builder().store(store).publisher(publisher).backoff(BACKOFF).config(config).clock(clock)
                .nanoTime(() -> clock.instant().toEpochMilli() * 1_000_000L).build();
    }

    private int inserted;

    private void insert(String type, int n) {
        for (int i = 0; i < n; i++) {
            store.insert(type, type + "-" + inserted++, type + ".created");
        }
    }

    @Test
    void aFullDestinationIsHeldWhileTheOtherKeepsFlowingAndNoAttemptCounts() throws Exception {
        TwoDestinations publisher = new TwoDestinations();
        publisher.full.add("queue-payment");
        DrainLoop loop = loop(publisher, false);
        for (int i = 0; i < 30; i++) { // interleaved: each batch holds rows of both
            insert("order", 1);
            insert("payment", 1);
        }

        loop.drain();

        assertThat(publisher.taken("queue-order")).as("the other destination flows").isEqualTo(30);
        assertThat(publisher.offered("queue-payment"))
                .as("the first batch's refusals hold it: no further message is offered").isEqualTo(5);
        assertThat(store.count(r -> r.attempts > 0)).as("a held destination counts no attempt").isZero();
        assertThat(store.count(r -> r.processedAt == null && r.retryAfter != null)).isEqualTo(30);
        assertThat(loop.heldDestinations()).extracting(DestinationHolds.Held::destination).containsExactly("queue-payment");
        assertThat(loop.heldDestinations().get(0).describe()).contains("queue-payment", "is full", "1 refusal");
        assertThat(loop.holdsForBroker()).as("the relay as a whole is not held").isFalse();

        // the hold (1 s) ends: one probe per batch, still full: held again for longer (2 s), still nothing counted
        clock.set(clock.instant().plusSeconds(1));
        insert("order", 5);
        loop.drain();
        assertThat(publisher.offered("queue-payment")).as("one probe").isEqualTo(6);
        assertThat(publisher.taken("queue-order")).isEqualTo(35);
        assertThat(loop.heldDestinations().get(0).refusals()).isEqualTo(2);
        assertThat(store.count(r -> r.attempts > 0)).isZero();

        // the consumers are back: the next probe gets through, the hold ends and the backlog drains
        publisher.full.clear();
        clock.set(clock.instant().plusSeconds(2));
        loop.drain();
        assertThat(publisher.taken("queue-payment")).isEqualTo(30);
        assertThat(loop.heldDestinations()).isEmpty();
        assertThat(store.count(r -> r.processedAt == null)).isZero();
        assertThat(store.count(r -> r.attempts > 0 || r.deadAt != null)).isZero();
    }

    @Test
    void whenNothingElseFlowsTheRelayHoldsOffTheOutboxInsteadOfClaimingOnlyToDefer() throws Exception {
        TwoDestinations publisher = new TwoDestinations();
        publisher.full.add("queue-payment");
        DrainLoop loop = loop(publisher, false);
        insert("payment", 45);

        loop.drain();
        assertThat(publisher.offered("queue-payment")).as("the first batch; the others were held back").isEqualTo(10);
        assertThat(store.count(r -> r.retryAfter != null)).isEqualTo(45);
        assertThat(loop.holdsForBroker()).as("the last batch was not full: every due row is the held destination's,"
                + " so the relay holds off the outbox until the hold ends").isTrue();
        assertThat(loop.brokerHoldLeft()).isEqualTo(Duration.ofSeconds(1));
        assertThat(store.count(r -> r.attempts > 0)).isZero();
    }

    @Test
    void orderedModeKeepsAnAggregatesOrderAcrossAHold() throws Exception {
        TwoDestinations publisher = new TwoDestinations();
        publisher.full.add("queue-payment");
        DrainLoop loop = loop(publisher, true);
        for (int e = 0; e < 3; e++) {
            store.insert("payment", "p-1", "payment.step" + e);
            store.insert("order", "o-1", "order.step" + e);
        }
        loop.drain();
        assertThat(publisher.taken.get("queue-order")).extracting(OutboxMessage::eventType)
                .containsExactly("order.step0", "order.step1", "order.step2");
        assertThat(publisher.offered("queue-payment")).isEqualTo(1);

        publisher.full.clear();
        clock.set(clock.instant().plusSeconds(1));
        loop.drain();
        assertThat(publisher.taken.get("queue-payment")).extracting(OutboxMessage::eventType)
                .containsExactly("payment.step0", "payment.step1", "payment.step2");
        assertThat(store.count(r -> r.attempts > 0)).isZero();
    }

    @Test
    void aBrokerOutageStillHoldsTheWholeRelay() throws Exception {
        Publisher down = new Publisher() {
            @Override
            public void publish(OutboxMessage message) throws Exception {
                throw new BrokerUnavailableException("connection refused", null);
            }

            @Override
            public String destinationOf(OutboxMessage message) {
                return "queue-order";
            }
        };
        DrainLoop loop = loop(down, false);
        insert("order", 20);
        loop.drain();
        assertThat(loop.holdsForBroker()).isTrue();
        assertThat(loop.heldDestinations()).as("no destination is to blame").isEmpty();
    }
}
