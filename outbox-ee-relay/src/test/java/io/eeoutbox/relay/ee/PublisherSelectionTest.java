package io.eeoutbox.relay.ee;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PublisherSelectionTest {

    @Test
    void oneApplicationBeanWins() {
        assertThat(PublisherSelection.choose(List.of("com.acme.KafkaPublisher"), "java:app/jms/OutboxEvents",
                () -> { throw new AssertionError("JMS is not looked up when a bean exists"); }))
                .isEqualTo(PublisherSelection.Choice.APPLICATION_BEAN);
    }

    @Test
    void noBeanFallsBackToTheShippedJmsPublisherWhenItsResourcesExist() {
        assertThat(PublisherSelection.choose(List.of(), "java:app/jms/OutboxEvents", Optional::empty))
                .isEqualTo(PublisherSelection.Choice.SHIPPED_JMS);
    }

    @Test
    void noBeanAndNoDestinationFailsSayingWhatWasFound() {
        assertThatThrownBy(() -> PublisherSelection.choose(List.of(), "java:app/jms/OutboxEvents",
                () -> Optional.of("nothing is bound at java:app/jms/OutboxEvents")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("found no active io.eeoutbox.spi.Publisher bean")
                .hasMessageContaining("nothing is bound at java:app/jms/OutboxEvents")
                .hasMessageContaining("outbox.relay.jms.destination");
    }

    @Test
    void severalBeansFailListingThem() {
        assertThatThrownBy(() -> PublisherSelection.choose(List.of("com.acme.A", "com.acme.B"), "x", Optional::empty))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("found 2 active io.eeoutbox.spi.Publisher beans")
                .hasMessageContaining("com.acme.A, com.acme.B");
    }

    @Test
    void kafkaIsChosenByConfigurationWhenNoBeanExistsAndABeanStillWins() {
        assertThat(PublisherSelection.choose(List.of(), "kafka", "java:app/jms/OutboxEvents",
                () -> { throw new AssertionError("JMS is not looked up for Kafka"); }))
                .isEqualTo(PublisherSelection.Choice.SHIPPED_KAFKA);
        assertThat(PublisherSelection.choose(List.of("com.acme.MyPublisher"), "kafka", "x", Optional::empty))
                .isEqualTo(PublisherSelection.Choice.APPLICATION_BEAN);
        assertThat(PublisherSelection.choose(List.of(), "jms", "x", Optional::empty))
                .isEqualTo(PublisherSelection.Choice.SHIPPED_JMS);
    }

    @Test
    void anUnknownPublisherNameIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> PublisherSelection.choose(List.of(), "rabbit", "x", Optional::empty))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outbox.relay.publisher=rabbit")
                .hasMessageContaining("jms (the default) or kafka");
    }
}
