package io.eeoutbox.wildfly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.jboss.as.controller.OperationFailedException;
import org.junit.jupiter.api.Test;

/**
 * The subsystem's view of the relays on a real MBean server, with MXBeans shaped as the relay's (open types, errors as
 * IllegalArgumentException with a message): children by name, quoted or not, and JMX failures as the relay's message.
 */
public class RelayMBeansOnAServerTest {

    /** Not the platform one, and kept nowhere (newMBeanServer): nothing to release. */
    private final MBeanServer server = MBeanServerFactory.newMBeanServer();
    private final RelayMBeanChildren relays = new RelayMBeanChildren(server);
    private final RelayJmx jmx = new RelayJmx(relays);

    /** An MXBean with two of the relay's members. */
    public interface FakeRelayMXBean {
        boolean isPaused();

        /** Only the live count, as relays before the Refreshed... attributes have. */
        long getPending();

        boolean retryDeadLetter(String eventId);
    }

    static final class FakeRelay implements FakeRelayMXBean {
        @Override
        public boolean isPaused() {
            return true;
        }

        @Override
        public long getPending() {
            return 7;
        }

        @Override
        public boolean retryDeadLetter(String eventId) {
            throw new IllegalArgumentException("eventId '" + eventId + "' is not a UUID");
        }
    }

    @Test
    void everyRelayMBeanIsAChildByItsUnquotedName() throws Exception {
        server.registerMBean(new FakeRelay(), new ObjectName("io.eeoutbox:type=OutboxRelay,name=orders-1"));
        server.registerMBean(new FakeRelay(), new ObjectName("io.eeoutbox:type=OutboxRelay,name="
                + ObjectName.quote("billing,eu=1")));
        server.registerMBean(new FakeRelay(), new ObjectName("io.eeoutbox:type=SomethingElse,name=x"));

        assertThat(relays.getChildren()).containsExactly("billing,eu=1", "orders-1");
        assertThat(relays.getChild("billing,eu=1")).isNotNull();
        assertThat(relays.getChild("nobody")).isNull();
        assertThat(RelayAttribute.PAUSED.read(jmx, "billing,eu=1").asBoolean()).isTrue();
        assertThat(RelayAttribute.PENDING.read(jmx, "orders-1").asLong()).as("an older relay: the live count").isEqualTo(7);
        assertThat(RelayAttribute.GAUGES_REFRESHED_AT.read(jmx, "orders-1").isDefined()).isFalse();
    }

    @Test
    void failuresCarryTheRelaysMessage() throws Exception {
        server.registerMBean(new FakeRelay(), new ObjectName("io.eeoutbox:type=OutboxRelay,name=orders-1"));

        assertThatThrownBy(() -> jmx.invoke("orders-1", "retryDeadLetter", new Object[] {"x"},
                new String[] {String.class.getName()}))
                .isInstanceOf(OperationFailedException.class)
                .hasMessage("relay orders-1: eventId 'x' is not a UUID");
        assertThatThrownBy(() -> RelayOperation.RETRY_DEAD_LETTER.named(() -> jmx.invoke("orders-1", "retryDeadLetter",
                new Object[] {"x"}, new String[] {String.class.getName()})))
                .isInstanceOf(OperationFailedException.class)
                .hasMessage("relay orders-1: event-id 'x' is not a UUID");
        assertThatThrownBy(() -> jmx.attribute("orders-1", "DeadLetters"))
                .isInstanceOf(OperationFailedException.class).hasMessageContaining("has no MBean attribute DeadLetters");
        assertThatThrownBy(() -> jmx.attribute("gone", "Paused"))
                .isInstanceOf(OperationFailedException.class).hasMessageContaining("relay gone no longer runs here");
    }
}
