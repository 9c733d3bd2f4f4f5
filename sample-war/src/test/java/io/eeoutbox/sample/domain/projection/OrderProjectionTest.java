package io.eeoutbox.sample.domain.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class OrderProjectionTest {

    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");

    @Test
    void eventsAreKeptAtConsecutivePositionsAndTheHighestRevisionWins() {
        UUID order = UUID.randomUUID();
        OrderProjection p = new OrderProjection(order, "NEW", NOW);

        ProjectedEvent created = p.applyCreated(UUID.randomUUID(), "order.created", "c", BigDecimal.TEN, "NEW", 1, NOW);
        ProjectedEvent shipped = p.applyStatusChanged(UUID.randomUUID(), "order.status-changed", "SHIPPED", 3, NOW);
        ProjectedEvent late = p.applyStatusChanged(UUID.randomUUID(), "order.status-changed", "PAID", 2, NOW);

        assertEquals(1, created.position());
        assertEquals(2, shipped.position());
        assertEquals(3, late.position());
        assertEquals(2, late.revision());
        assertEquals("SHIPPED", p.status(), "an older event does not undo a newer one");
        assertEquals(3, p.revision());
        assertEquals(3, p.eventsApplied());
        assertEquals("c", p.customerId());
    }

    @Test
    void aPaymentOverdueNoticeMarksOnlyAnOrderStillNew() {
        OrderProjection unpaid = new OrderProjection(UUID.randomUUID(), "NEW", NOW);
        unpaid.applyCreated(UUID.randomUUID(), "order.created", "c", BigDecimal.TEN, "NEW", 1, NOW);
        ProjectedEvent notice = unpaid.applyPaymentOverdue(UUID.randomUUID(), "order.payment-overdue", NOW);
        assertEquals(OrderProjection.PAYMENT_OVERDUE, unpaid.status());
        assertEquals(2, notice.position());
        assertEquals(1, unpaid.revision(), "the order's revision is the order's: the notice is the consumer's view");

        OrderProjection paid = new OrderProjection(UUID.randomUUID(), "NEW", NOW);
        paid.applyCreated(UUID.randomUUID(), "order.created", "c", BigDecimal.TEN, "NEW", 1, NOW);
        paid.applyStatusChanged(UUID.randomUUID(), "order.status-changed", "PAID", 2, NOW);
        assertNull(paid.applyPaymentOverdue(UUID.randomUUID(), "order.payment-overdue", NOW));
        assertEquals("PAID", paid.status());
        assertEquals(2, paid.eventsApplied());
    }
}
