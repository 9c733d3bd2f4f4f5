package io.eeoutbox.relay.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.config.CompletionMode;
import io.eeoutbox.relay.store.OutboxStore.Claim;
import io.eeoutbox.relay.store.OutboxStore.ClaimLimits;
import io.eeoutbox.relay.store.OutboxStore.Promoted;
import io.eeoutbox.relay.store.OutboxStore.Session;
import io.eeoutbox.relay.store.OutboxStore.Stats;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The delayed events' part of the {@link OutboxStore} contract (schema V14; {@link OutboxStoreContract} runs it on
 * every store): a delayed write waits outside the outbox until its time, by the store's clock at the write; a
 * promotion moves due rows earliest first with a fresh seq, and answers when the next one falls due, from the
 * promotion's now (the caller's instant, as in the rest of the contract).
 */
abstract class DelayedEventsContract {

    /** The store under test, on an empty outbox. */
    protected abstract OutboxStore store();

    /** Writes and commits one pending event; returns its id. */
    protected abstract UUID insert(String aggregateType, String aggregateId, String eventType, String payload)
            throws Exception;

    /** Writes and commits one delayed event, as InsertOutboxEventAt does; returns its id. */
    protected abstract UUID insertAt(String aggregateType, String aggregateId, String eventType, String payload,
                                     Instant notBefore) throws Exception;

    private static Claim claim(Instant now, boolean ordered) {
        return new Claim(UUID.randomUUID(), now, now.plusSeconds(60), new ClaimLimits(3, 100, 1 << 20, ordered));
    }

    private static List<UUID> ids(List<OutboxMessage> messages) {
        return messages.stream().map(OutboxMessage::id).toList();
    }

    @Test
    void aDelayedEventWaitsOutsideTheOutboxAndJoinsItWhenDueWithAFreshSeq() throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Instant due = now.plus(Duration.ofHours(1));
        UUID e1 = insert("order", "a", "order.created", "{}");
        UUID d = insertAt("order", "a", "order.payment-overdue", "{\"late\":true}", due);
        UUID e2 = insert("order", "a", "order.paid", "{}");
        Stats stats = store().stats();
        assertThat(stats.pending()).as("a scheduled event is not pending").isEqualTo(2);
        assertThat(stats.scheduled()).isEqualTo(1);
        assertThat(stats.nextDueAt()).isEqualTo(due);
        try (Session s = store().open()) {
            Claim first = claim(now, true);
            assertThat(ids(s.claim(first).messages())).as("it holds back nothing of its aggregate").containsExactly(e1);
            s.complete(CompletionMode.MARK, List.of(e1), first.token(), now);

            Promoted early = s.promoteDue(now, 10); // the relay's path: on its drain's session
            assertThat(early.moved()).isZero();
            assertThat(early.nextDueIn()).isEqualTo(Duration.ofHours(1));
            assertThat(store().promoteDue(due.minusMillis(1), 10)).isEqualTo(new Promoted(0, Duration.ofMillis(1)));

            Promoted promoted = s.promoteDue(due, 10);
            assertThat(promoted).isEqualTo(new Promoted(1, null));
            assertThat(store().stats()).satisfies(st -> {
                assertThat(st.pending()).isEqualTo(2);
                assertThat(st.scheduled()).isZero();
                assertThat(st.nextDueAt()).isNull();
            });
            List<OutboxMessage> claimed = s.claim(claim(due, true)).messages();
            assertThat(ids(claimed)).as("e2 was written before d fell due").containsExactly(e2);
            Claim all = claim(due.plusSeconds(120), false);
            List<OutboxMessage> both = s.claim(all).messages();
            OutboxMessage promotedRow = both.stream().filter(m -> m.id().equals(d)).findFirst().orElseThrow();
            assertThat(promotedRow.seq()).as("a fresh seq: after e2").isGreaterThan(
                    both.stream().filter(m -> m.id().equals(e2)).findFirst().orElseThrow().seq());
            assertThat(promotedRow.eventType()).isEqualTo("order.payment-overdue");
            assertThat(promotedRow.payload()).contains("late");
            assertThat(promotedRow.createdAt()).as("its creation time is the write's")
                    .isBefore(Instant.now().plusSeconds(1));
        }
    }

    /**
     * The pending age counts a promoted row from its promotion, not from its write (schema V17's promoted_at;
     * docs/operations.md, "Delayed events"): an event delayed an hour is not an hour old when it falls due.
     */
    @Test
    void aPromotedEventIsPendingSinceItsPromotionNotSinceItsWrite() throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Instant due = now.plus(Duration.ofHours(1));
        insertAt("order", "a", "order.reminder", "{}", due);
        Instant promotion = due.plusSeconds(5);
        assertThat(store().promoteDue(promotion, 10)).isEqualTo(new Promoted(1, null));
        assertThat(store().stats().oldestPendingSince()).as("since its promotion, not since its write an hour before")
                .isEqualTo(promotion);
        insert("order", "b", "order.created", "{}");
        assertThat(store().stats().oldestPendingSince()).as("a row written directly is pending since its write")
                .isBefore(promotion).isAfter(now.minusSeconds(60));
    }

    @Test
    void aPastNotBeforeIsDueAtOnce() throws Exception {
        UUID id = insertAt("order", "a", "order.created", "{}", Instant.now().minusSeconds(30));
        assertThat(store().stats().scheduled()).isZero();
        assertThat(store().promoteDue(Instant.now(), 10)).isEqualTo(Promoted.NONE);
        try (Session s = store().open()) {
            assertThat(ids(s.claim(claim(Instant.now(), false)).messages())).containsExactly(id);
        }
    }

    @Test
    void aPromotionMovesTheEarliestDueFirstUpToItsLimitAndSaysWhenTheNextFallsDue() throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        UUID third = insertAt("order", "c", "order.reminder", "{}", now.plus(Duration.ofHours(3)));
        UUID first = insertAt("order", "a", "order.reminder", "{}", now.plus(Duration.ofHours(1)));
        UUID second = insertAt("order", "b", "order.reminder", "{}", now.plus(Duration.ofHours(2)));
        Instant later = now.plus(Duration.ofMinutes(150));

        assertThat(store().promoteDue(later, 1)).as("the second is due already").isEqualTo(new Promoted(1, Duration.ZERO));
        assertThat(store().promoteDue(later, 10)).isEqualTo(new Promoted(1, Duration.ofMinutes(30)));
        assertThat(store().stats().scheduled()).isEqualTo(1);
        try (Session s = store().open()) {
            List<OutboxMessage> claimed = s.claim(claim(later, false)).messages().stream()
                    .sorted((x, y) -> Long.compare(x.seq(), y.seq())).toList();
            assertThat(ids(claimed)).as("in due order").containsExactly(first, second);
        }
        assertThat(store().promoteDue(now.plus(Duration.ofHours(4)), 10)).isEqualTo(new Promoted(1, null));
        assertThat(store().stats().scheduled()).isZero();
        assertThat(third).isNotNull();
    }
}
