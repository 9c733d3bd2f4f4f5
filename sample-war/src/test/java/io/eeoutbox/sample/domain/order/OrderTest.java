package io.eeoutbox.sample.domain.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class OrderTest {

    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instant T1 = Instant.parse("2026-01-01T10:05:00Z");

    @Test
    void aPlacedOrderIsNewAtRevisionOneAndAnnouncesItself() {
        UUID id = UUID.randomUUID();
        Order order = Order.place(id, "  c-42 ", new BigDecimal("12.5"), T0);

        assertEquals(OrderStatus.NEW, order.getStatus());
        assertEquals(1, order.getRevision());
        assertEquals("c-42", order.getCustomerId());
        assertEquals(new OrderCreated(id, "c-42", new BigDecimal("12.50"), "NEW", 1, T0), order.created());
    }

    @Test
    void eachStatusChangeRaisesTheRevisionAndSaysFromWhatToWhat() {
        Order order = Order.place(UUID.randomUUID(), "c", BigDecimal.ONE, T0);

        OrderStatusChanged paid = order.changeStatus(OrderStatus.PAID, T1);
        OrderStatusChanged shipped = order.changeStatus(OrderStatus.SHIPPED, T1);

        assertEquals(new OrderStatusChanged(order.getId(), "NEW", "PAID", 2, T1), paid);
        assertEquals(new OrderStatusChanged(order.getId(), "PAID", "SHIPPED", 3, T1), shipped);
        assertEquals(3, order.getRevision());
        assertEquals(T1, order.getUpdatedAt());
    }

    @Test
    void aStatusTheCurrentOneDoesNotAllowIsAConflictAndChangesNothing() {
        Order order = Order.place(UUID.randomUUID(), "c", BigDecimal.ONE, T0);

        assertThrows(OrderStatusConflictException.class, () -> order.changeStatus(OrderStatus.DELIVERED, T1));
        assertThrows(OrderStatusConflictException.class, () -> order.changeStatus(OrderStatus.NEW, T1));
        order.changeStatus(OrderStatus.CANCELLED, T1);
        assertThrows(OrderStatusConflictException.class, () -> order.changeStatus(OrderStatus.PAID, T1));
        assertEquals(OrderStatus.CANCELLED, order.getStatus());
        assertEquals(2, order.getRevision());
    }

    @Test
    void invalidInputNamesTheField() {
        assertEquals("customerId", field(() -> Order.place(UUID.randomUUID(), null, BigDecimal.ONE, T0)));
        assertEquals("customerId", field(() -> Order.place(UUID.randomUUID(), " ", BigDecimal.ONE, T0)));
        assertEquals("customerId", field(() -> Order.place(UUID.randomUUID(), "x".repeat(101), BigDecimal.ONE, T0)));
        assertEquals("total", field(() -> Order.place(UUID.randomUUID(), "c", null, T0)));
        assertEquals("total", field(() -> Order.place(UUID.randomUUID(), "c", new BigDecimal("-0.01"), T0)));
        assertEquals("total", field(() -> Order.place(UUID.randomUUID(), "c", new BigDecimal("1.005"), T0)));
        assertEquals("total", field(() -> Order.place(UUID.randomUUID(), "c", new BigDecimal("10000000000"), T0)));
        assertEquals("status", field(() -> OrderStatus.parse("status", "FLYING")));
        assertEquals("status", field(() -> OrderStatus.parse("status", null)));
    }

    @Test
    void limitsAreInclusive() {
        assertEquals(new BigDecimal("0.00"), Order.place(UUID.randomUUID(), "c", BigDecimal.ZERO, T0).getTotal());
        assertEquals(Order.MAX_TOTAL, Order.place(UUID.randomUUID(), "x".repeat(100), Order.MAX_TOTAL, T0).getTotal());
        assertEquals(new BigDecimal("1.50"), Order.place(UUID.randomUUID(), "c", new BigDecimal("1.500"), T0).getTotal());
        assertEquals(OrderStatus.PAID, OrderStatus.parse("status", " paid "));
    }

    private static String field(Runnable call) {
        return assertThrows(InvalidOrderException.class, call::run).field();
    }
}
