package io.eeoutbox.wildfly;

import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.TreeSet;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.jboss.as.controller.registry.PlaceholderResource;
import org.jboss.as.controller.registry.Resource;
import org.wildfly.subsystem.resource.ChildResourceProvider;

/**
 * The {@code relay} children of the subsystem: one per MBean {@code io.eeoutbox:type=OutboxRelay,name=<relay name>}
 * on the platform MBean server, where each relay registers itself while it runs. Nothing is kept here: every call asks
 * the MBean server, so a relay appears and disappears with its MBean.
 */
final class RelayMBeanChildren implements ChildResourceProvider {

    static final String DOMAIN = "io.eeoutbox";
    static final String TYPE = "OutboxRelay";
    private static final ObjectName PATTERN = pattern();

    private final MBeanServer server;

    RelayMBeanChildren(MBeanServer server) {
        this.server = server;
    }

    /**
     * The server's platform MBean server, the one the relays register on: WildFly's jmx subsystem makes its pluggable
     * MBean server the platform one.
     */
    static MBeanServer platform() {
        return ManagementFactory.getPlatformMBeanServer();
    }

    MBeanServer server() {
        return server;
    }

    @Override
    public Resource getChild(String relay) {
        return find(relay) == null ? null : PlaceholderResource.INSTANCE;
    }

    @Override
    public Set<String> getChildren() {
        Set<String> names = new TreeSet<>();
        for (ObjectName name : server.queryNames(PATTERN, null)) {
            String relay = relayName(name);
            if (relay != null) {
                names.add(relay);
            }
        }
        return names;
    }

    /** The MBean of the relay named {@code relay} (its name key quoted or not), or null when none runs here. */
    ObjectName find(String relay) {
        for (ObjectName name : server.queryNames(PATTERN, null)) {
            if (relay.equals(relayName(name))) {
                return name;
            }
        }
        return null;
    }

    /** The relay's name: the MBean's {@code name} key, unquoted. */
    static String relayName(ObjectName name) {
        String value = name.getKeyProperty("name");
        if (value == null || value.isEmpty()) {
            return null;
        }
        try {
            return value.startsWith("\"") ? ObjectName.unquote(value) : value;
        } catch (IllegalArgumentException malformed) {
            return value;
        }
    }

    private static ObjectName pattern() {
        try {
            return new ObjectName(DOMAIN + ":type=" + TYPE + ",*");
        } catch (MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }
}
