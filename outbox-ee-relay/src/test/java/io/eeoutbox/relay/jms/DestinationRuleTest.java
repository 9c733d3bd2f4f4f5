package io.eeoutbox.relay.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.OutboxMessage;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DestinationRuleTest {

    private static OutboxMessage event(String aggregateType, String eventType) {
        return new OutboxMessage(UUID.randomUUID(), 1, eventType, "{}", new OutboxMessage.Aggregate(aggregateType, "a-1"),
                OutboxMessage.Delivery.of(Instant.parse("2026-01-01T00:00:00Z"), 1));
    }

    @Test
    void aPatternNamesEachEventsDestinationByItsAggregateTypeOrEventTypeOrBoth() {
        assertThat(DestinationRule.pattern("java:app/jms/{aggregate_type}-events").nameFor(event("order", "order.created")))
                .isEqualTo("java:app/jms/order-events");
        assertThat(DestinationRule.pattern("java:app/jms/{event_type}").nameFor(event("order", "order.created")))
                .isEqualTo("java:app/jms/order.created");
        assertThat(DestinationRule.pattern("java:/queue/{aggregate_type}/{event_type}")
                .nameFor(event("payment", "payment.captured"))).isEqualTo("java:/queue/payment/payment.captured");
        assertThat(DestinationRule.pattern("java:app/jms/{aggregate_type}-{aggregate_type}").nameFor(event("x", "y")))
                .isEqualTo("java:app/jms/x-x");
    }

    @Test
    void aFixedNameIsEveryEventsDestination() {
        DestinationRule rule = DestinationRule.fixed("java:app/jms/OutboxEvents");
        assertThat(rule.isFixed()).isTrue();
        assertThat(rule.nameFor(event(null, "anything"))).isEqualTo("java:app/jms/OutboxEvents");
        assertThat(rule).hasToString("java:app/jms/OutboxEvents");
        assertThat(DestinationRule.pattern("java:app/jms/{event_type}")).hasToString(
                "destination-pattern=java:app/jms/{event_type}");
    }

    @Test
    void anEventWhoseTypesCannotBePartOfAJndiNameFailsAloneWithTheReason() {
        DestinationRule rule = DestinationRule.pattern("java:app/jms/{aggregate_type}-events");
        OutboxMessage escaping = event("../comp/x", "order.created");
        assertThatThrownBy(() -> rule.nameFor(escaping)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(escaping.id().toString())
                .hasMessageContaining("aggregate type '../comp/x' has a character other than a-z A-Z 0-9 . _ -")
                .hasMessageContaining("outbox.relay.jms.destination-pattern=java:app/jms/{aggregate_type}-events");
        assertThatThrownBy(() -> rule.nameFor(event(null, "order.created")))
                .hasMessageContaining("aggregate type is missing");
        assertThatThrownBy(() -> rule.nameFor(event("has space", "t"))).isInstanceOf(IllegalArgumentException.class);
        // the event type is not in this pattern: any event type goes
        assertThat(rule.nameFor(event("order", "order created/x"))).isEqualTo("java:app/jms/order-events");
        assertThatThrownBy(() -> rule.nameFor(event("o".repeat(300), "t"))).hasMessageContaining("longer than 255");
    }

    @Test
    void aPatternThatCannotNameDestinationsIsRefusedAtStartNamingTheSetting() {
        assertThatThrownBy(() -> DestinationRule.pattern("java:app/jms/orders"))
                .hasMessageContaining("invalid configuration: outbox.relay.jms.destination-pattern=java:app/jms/orders")
                .hasMessageContaining("neither {aggregate_type} nor {event_type}")
                .hasMessageContaining("outbox.relay.jms.destination");
        assertThatThrownBy(() -> DestinationRule.pattern("java:app/jms/{aggregate}"))
                .hasMessageContaining("unknown placeholder {aggregate}");
        assertThatThrownBy(() -> DestinationRule.pattern("java:app/jms/{aggregate_type}}"))
                .hasMessageContaining("a brace outside");
        assertThatThrownBy(() -> DestinationRule.pattern("java:app/jms/{aggregate_type} events"))
                .hasMessageContaining("no spaces");
        assertThatThrownBy(() -> DestinationRule.pattern(""))
                .hasMessageContaining("outbox.relay.jms.destination-pattern=");
        assertThatThrownBy(() -> DestinationRule.pattern("java:app/" + "j".repeat(260) + "{event_type}"))
                .hasMessageContaining("longer than 255");
    }
}
