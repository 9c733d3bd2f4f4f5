package io.eeoutbox.relay.ee;

import io.eeoutbox.relay.store.FleetStore;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Who a relay in a server is in its outbox's fleet (schema V13): the server is the host and the server's own name
 * ({@code jboss.node.name} on WildFly, {@code wlp.server.name} on Open Liberty, else the process id), the application
 * is {@code java:app/AppName}. Looked up on the deploying thread (JNDI), at start.
 */
final class FleetIdentities {

    private static final Logger LOG = Logger.getLogger(FleetIdentities.class.getName());
    private static final int MAX = 200;

    private FleetIdentities() {
    }

    static FleetStore.Identity of(String relayName) {
        return new FleetStore.Identity(cut(host() + "/" + node()), cut(application()), relayName, UUID.randomUUID());
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    private static String node() {
        String wildfly = System.getProperty("jboss.node.name");
        if (wildfly != null && !wildfly.isBlank()) {
            return wildfly;
        }
        String liberty = System.getProperty("wlp.server.name");
        return liberty != null && !liberty.isBlank() ? liberty : "pid-" + ProcessHandle.current().pid();
    }

    private static String application() {
        try {
            return InitialContext.doLookup("java:app/AppName");
        } catch (NamingException | RuntimeException e) {
            LOG.fine(() -> "java:app/AppName is not available, the fleet names the application 'app': " + e);
            return "app";
        }
    }

    private static String cut(String s) {
        return s.length() <= MAX ? s : s.substring(0, MAX);
    }
}
