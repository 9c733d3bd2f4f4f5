package io.eeoutbox.relay.ee;

import io.eeoutbox.relay.config.RelayConfig;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Warns at start when the relay's data source pool is smaller than the connections the relay can hold at
 * once (see {@link #peak(RelayConfig, boolean)} and the table in docs/operations.md). A pool that small makes
 * the relay's own statements wait for each other (up to the pool's blocking timeout) and, when the application
 * shares the pool, its requests too.
 *
 * <p>The pool's maximum is read from the server's management MBeans, matched by the last segment of the JNDI
 * name ({@code java:app/jdbc/OutboxRelay} matches a data source bound at {@code java:/jdbc/OutboxRelay}):
 * WildFly's {@code jboss.as:subsystem=datasources,data-source=*} ({@code maxPoolSize}) and Open Liberty's
 * {@code ConnectionManagerMBean} ({@code maxPoolSize} in {@code showPoolContents()}). When no single data
 * source matches, the check says so at INFO and names the number to compare with.
 */
final class PoolSizeCheck {

    private static final Logger LOG = Logger.getLogger(PoolSizeCheck.class.getName());
    private static final Pattern LIBERTY_MAX = Pattern.compile("maxPoolSize\\s*=\\s*(\\d+)", Pattern.CASE_INSENSITIVE);

    private PoolSizeCheck() {
    }

    /**
     * The connections the relay can hold at once: its drain (1), the pipelined completion (1), the LISTEN
     * connection when it comes from the data source (1), the gauge refresh (1), the cleanup (1), the fleet's
     * heartbeat (1) and an operator's MBean call (1).
     */
    static int peak(RelayConfig config, boolean pipelined) {
        int listen = config.notifyEnabled() && config.notifyJdbcUrl().isEmpty() ? 1 : 0;
        return 1 + (pipelined ? 1 : 0) + listen + 1 + 1 + 1 + 1;
    }

    /**
     * {@link #check}s now, or, while WildFly is still starting (an application deployed at boot), every 5 s until it
     * has started (at most 2 min): WildFly answers its data sources' MBeans only then, and logs an ERROR for each
     * read before. Gives up when {@code running} turns false (the application was stopped). Never throws.
     */
    static void checkOnceStarted(RelayConfig config, String dataSource, boolean pipelined,
                                 ScheduledExecutorService executor, BooleanSupplier running) {
        checkOnceStarted(config, dataSource, pipelined, executor, running, 24);
    }

    private static void checkOnceStarted(RelayConfig config, String dataSource, boolean pipelined,
                                         ScheduledExecutorService executor, BooleanSupplier running, int triesLeft) {
        if (!running.getAsBoolean()) {
            return;
        }
        if (!wildFlyStarting(ManagementFactory.getPlatformMBeanServer())) {
            check(config, dataSource, pipelined);
            return;
        }
        if (triesLeft == 0) {
            LOG.info(() -> "relay " + config.name() + ": the server is still starting after 2 min; the size of the pool"
                    + " of " + dataSource + " is not checked (docs/operations.md, \"Connections\")");
            return;
        }
        try {
            executor.schedule(() -> checkOnceStarted(config, dataSource, pipelined, executor, running, triesLeft - 1),
                    5, TimeUnit.SECONDS);
        } catch (RuntimeException e) { // the application is stopping
            LOG.log(Level.FINE, "relay " + config.name() + ": the pool size check was not scheduled", e);
        }
    }

    /** Whether this is a WildFly whose boot has not finished ({@code server-state} "starting"). */
    static boolean wildFlyStarting(MBeanServer server) {
        try {
            Object state = server.getAttribute(new ObjectName("jboss.as:management-root=server"), "serverState");
            return "starting".equalsIgnoreCase(String.valueOf(state));
        } catch (Exception e) {
            return false; // not WildFly, or no such attribute: check at once
        }
    }

    /** Logs the comparison; never throws. */
    static void check(RelayConfig config, String dataSource, boolean pipelined) {
        int needed = peak(config, pipelined);
        try {
            OptionalInt max = maxPoolSize(ManagementFactory.getPlatformMBeanServer(), dataSource);
            if (max.isEmpty()) {
                LOG.info(() -> "relay " + config.name() + ": could not learn the pool size of " + dataSource
                        + " from the server's MBeans; the relay holds up to " + needed + " of its connections at once"
                        + " (docs/operations.md, \"Connections\"): make its maximum at least that");
            } else if (max.getAsInt() < needed) {
                LOG.warning(() -> "relay " + config.name() + ": the pool of " + dataSource + " holds at most "
                        + max.getAsInt() + " connections, but the relay holds up to " + needed + " at once (drain, pipelined"
                        + " completion, LISTEN, gauges, cleanup, heartbeat, an operator's call): its statements will wait for each"
                        + " other. Raise the pool's maximum to at least " + needed + " plus whatever else uses it"
                        + " (docs/operations.md, \"Connections\")");
            } else {
                LOG.info(() -> "relay " + config.name() + ": the pool of " + dataSource + " holds at most "
                        + max.getAsInt() + " connections; the relay holds up to " + needed + " at once");
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.FINE, "relay " + config.name() + ": could not check the data source's pool size", e);
        }
    }

    /** The pool maximum of the one server data source whose JNDI name ends like {@code jndiName}, if found. */
    static OptionalInt maxPoolSize(MBeanServer server, String jndiName) {
        String last = jndiName.substring(jndiName.lastIndexOf('/') + 1);
        List<Integer> found = new ArrayList<>();
        found.addAll(wildFly(server, last));
        found.addAll(liberty(server, last));
        return found.size() == 1 ? OptionalInt.of(found.get(0)) : OptionalInt.empty();
    }

    private static List<Integer> wildFly(MBeanServer server, String last) {
        List<Integer> sizes = new ArrayList<>();
        for (ObjectName name : query(server, "jboss.as:subsystem=datasources,data-source=*")) {
            try {
                Object jndi = server.getAttribute(name, "jndiName");
                if (jndi != null && endsWith(jndi.toString(), last)) {
                    Object max = server.getAttribute(name, "maxPoolSize");
                    sizes.add(max == null ? 20 : Integer.parseInt(max.toString())); // WildFly's default is 20
                }
            } catch (Exception e) {
                LOG.log(Level.FINE, "reading " + name, e);
            }
        }
        return sizes;
    }

    private static List<Integer> liberty(MBeanServer server, String last) {
        List<Integer> sizes = new ArrayList<>();
        for (ObjectName name : query(server, "WebSphere:type=com.ibm.ws.jca.cm.mbean.ConnectionManagerMBean,*")) {
            String jndi = name.getKeyProperty("jndiName");
            if (jndi == null || !endsWith(jndi, last)) {
                continue;
            }
            try {
                Object contents = server.invoke(name, "showPoolContents", new Object[0], new String[0]);
                Matcher m = LIBERTY_MAX.matcher(String.valueOf(contents));
                if (m.find()) {
                    sizes.add(Integer.parseInt(m.group(1)));
                }
            } catch (Exception e) {
                LOG.log(Level.FINE, "reading " + name, e);
            }
        }
        return sizes;
    }

    private static boolean endsWith(String jndi, String last) {
        return jndi.equals(last) || jndi.endsWith("/" + last);
    }

    private static Set<ObjectName> query(MBeanServer server, String pattern) {
        try {
            return server.queryNames(new ObjectName(pattern), null);
        } catch (Exception e) {
            return Set.of();
        }
    }
}
