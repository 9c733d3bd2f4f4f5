package io.eeoutbox.sample.fault.harness;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The relay's MBean ({@code io.eeoutbox:type=OutboxRelay,name=<relay name>}) on a WildFly instance,
 * reached as an operator reaches it with JConsole: remoting over the management port, WildFly's own
 * client jar in a class loader of its own, a ManagementRealm user.
 */
public final class RelayJmx {

    private RelayJmx() {
    }

    /** One call of the relay's MBean on {@code server}. */
    @FunctionalInterface
    public interface Call<T> {
        T on(MBeanServerConnection mbeans, ObjectName relay) throws Exception;
    }

    /** {@code retryDeadLetters(eventType, null, null, null)}: how many dead letters were made due again. */
    public static int retryDeadLetters(FaultServer server, String eventType) throws Exception {
        return call(server, (mbeans, relay) -> ((Number) mbeans.invoke(relay, "retryDeadLetters",
                new Object[] {eventType, null, null, null}, new String[] {String.class.getName(),
                    String.class.getName(), String.class.getName(), String.class.getName()})).intValue());
    }

    /** Connects as outbox-admin, runs {@code call} on the relay's MBean, disconnects. */
    public static <T> T call(FaultServer server, Call<T> call) throws Exception {
        Path clientJar = FaultSettings.wildflyHome().resolve("bin/client/jboss-client.jar");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {clientJar.toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            Map<String, Object> env = new HashMap<>();
            env.put(JMXConnectorFactory.PROTOCOL_PROVIDER_CLASS_LOADER, loader);
            env.put(JMXConnector.CREDENTIALS, new String[] {"outbox-admin", "outbox-admin-1"});
            // not the silent local authentication a process of the server's own user gets
            env.put("org.jboss.remoting-jmx.excluded-sasl-mechanisms", "JBOSS-LOCAL-USER");
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(loader);
            try (JMXConnector connector = JMXConnectorFactory.connect(
                    new JMXServiceURL("service:jmx:remote+http://127.0.0.1:" + server.managementPort()), env)) {
                MBeanServerConnection mbeans = connector.getMBeanServerConnection();
                return call.on(mbeans, io.eeoutbox.relay.ops.RelayMBeans.objectName(server.instance()));
            } finally {
                thread.setContextClassLoader(previous);
            }
        }
    }
}
