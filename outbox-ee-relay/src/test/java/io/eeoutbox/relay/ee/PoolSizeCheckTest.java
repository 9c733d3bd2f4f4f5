package io.eeoutbox.relay.ee;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import java.util.Map;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/** The relay's connection needs, and reading a pool's maximum the way WildFly's and Liberty's MBeans show it. */
class PoolSizeCheckTest {

    private final MBeanServer server = MBeanServerFactory.newMBeanServer();

    /** WildFly's data source resource as its JMX subsystem shows it: attributes named as in the model, camelCase. */
    static DynamicMBean wildFlyDataSource(String jndiName, int maxPoolSize) {
        return wildFlyResource(Map.of("jndiName", jndiName, "maxPoolSize", maxPoolSize));
    }

    /** A WildFly management resource with these attributes. */
    static DynamicMBean wildFlyResource(Map<String, Object> attributes) {
        return new DynamicMBean() {
            @Override
            public Object getAttribute(String attribute) throws AttributeNotFoundException {
                Object value = attributes.get(attribute);
                if (value == null) {
                    throw new AttributeNotFoundException(attribute);
                }
                return value;
            }

            @Override
            public void setAttribute(Attribute attribute) {
                throw new UnsupportedOperationException();
            }

            @Override
            public AttributeList getAttributes(String[] names) {
                return new AttributeList();
            }

            @Override
            public AttributeList setAttributes(AttributeList list) {
                return new AttributeList();
            }

            @Override
            public Object invoke(String action, Object[] params, String[] signature) {
                throw new UnsupportedOperationException(action);
            }

            @Override
            public MBeanInfo getMBeanInfo() {
                return new MBeanInfo(getClass().getName(), "data source", null, null, null, null);
            }
        };
    }

    /** Liberty's ConnectionManagerMBean operation the check calls. */
    public interface LibertyPoolMBean {
        String showPoolContents();
    }

    public record LibertyPool(int max) implements LibertyPoolMBean {
        @Override
        public String showPoolContents() {
            return "PoolManager@1a2b\nname=dataSource[OutboxRelayDS]/connectionManager\njndiName=jdbc/OutboxRelay\n"
                    + "maxPoolsize=" + max + "\nsize=0\nwaiting=0\n";
        }
    }

    @Test
    void theCheckWaitsWhileWildFlyIsStarting() throws Exception {
        assertThat(PoolSizeCheck.wildFlyStarting(server)).as("not WildFly: check at once").isFalse();
        ObjectName root = new ObjectName("jboss.as:management-root=server");
        server.registerMBean(wildFlyResource(Map.of("serverState", "starting")), root);
        assertThat(PoolSizeCheck.wildFlyStarting(server)).isTrue();
        server.unregisterMBean(root);
        server.registerMBean(wildFlyResource(Map.of("serverState", "running")), root);
        assertThat(PoolSizeCheck.wildFlyStarting(server)).isFalse();
    }

    @Test
    void thePeakCountsDrainCompletionListenerGaugesCleanupAndAdmin() {
        RelayConfig defaults = RelayConfig.defaults();
        assertThat(PoolSizeCheck.peak(defaults, true)).isEqualTo(7);
        assertThat(PoolSizeCheck.peak(defaults, false)).isEqualTo(6);
        assertThat(PoolSizeCheck.peak(defaults.toBuilder().set(RelaySettings.NOTIFY_JDBC_URL, "jdbc:postgresql://db/x").build(), true))
                .as("a dedicated LISTEN connection is not the pool's").isEqualTo(6);
        assertThat(PoolSizeCheck.peak(defaults.toBuilder().set(RelaySettings.NOTIFY_ENABLED, false).build(), true)).isEqualTo(6);
    }

    @Test
    void readsWildFlysDataSourceByTheLastSegmentOfItsJndiName() throws Exception {
        server.registerMBean(wildFlyDataSource("java:/jdbc/Outbox", 20),
                new ObjectName("jboss.as:subsystem=datasources,data-source=OutboxDS"));
        server.registerMBean(wildFlyDataSource("java:/jdbc/OutboxRelay", 5),
                new ObjectName("jboss.as:subsystem=datasources,data-source=OutboxRelayDS"));
        assertThat(PoolSizeCheck.maxPoolSize(server, "java:app/jdbc/OutboxRelay")).hasValue(5);
        assertThat(PoolSizeCheck.maxPoolSize(server, "java:app/jdbc/Other")).isEmpty();
    }

    @Test
    void readsLibertysConnectionManager() throws Exception {
        server.registerMBean(new LibertyPool(7), new ObjectName(
                "WebSphere:type=com.ibm.ws.jca.cm.mbean.ConnectionManagerMBean,jndiName=jdbc/OutboxRelay,name=cm-1"));
        assertThat(PoolSizeCheck.maxPoolSize(server, "java:app/jdbc/OutboxRelay")).hasValue(7);
    }
}
