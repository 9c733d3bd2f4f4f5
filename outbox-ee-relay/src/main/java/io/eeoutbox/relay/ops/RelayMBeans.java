package io.eeoutbox.relay.ops;

import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Registers a relay's MBean as {@code io.eeoutbox:type=OutboxRelay,name=<relay name>} and removes it
 * again. A registration left behind by an earlier deployment whose relay no longer runs (its
 * {@code Running} attribute is false, or cannot be read) is replaced; a running relay of the same name
 * (another application on this server) is left alone and this one is not registered, with a warning.
 */
public final class RelayMBeans {

    public static final String DOMAIN = "io.eeoutbox";
    public static final String TYPE = "OutboxRelay";

    private static final Logger LOG = Logger.getLogger(RelayMBeans.class.getName());

    private RelayMBeans() {
    }

    /** {@code io.eeoutbox:type=OutboxRelay,name=<relay name>}, the name quoted when it needs quoting. */
    public static ObjectName objectName(String relayName) {
        String value = relayName.matches("[A-Za-z0-9._\\-@#/+ ]+") ? relayName : ObjectName.quote(relayName);
        try {
            return new ObjectName(DOMAIN + ":type=" + TYPE + ",name=" + value);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("relay name " + relayName + " cannot be an MBean name: " + e.getMessage(), e);
        }
    }

    /**
     * Registers {@code admin}, the MBean over a relay's {@link RelayOperations}, under the relay's name.
     *
     * @return the name it was registered under, or null when a running relay of that name already has it
     */
    public static ObjectName register(MBeanServer server, JmxAdapter admin) {
        ObjectName name = objectName(admin.getName());
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                server.registerMBean(admin, name);
                LOG.info(() -> "relay MBean registered: " + name);
                return name;
            } catch (InstanceAlreadyExistsException e) {
                if (!stale(server, name)) {
                    LOG.warning(() -> "relay MBean " + name + " is already registered by a running relay of the same name"
                            + " (another application?); this relay has no MBean. Give each application its own "
                            + "outbox.relay.name.");
                    return null;
                }
                LOG.info(() -> "replacing the stale relay MBean " + name + " left by an earlier deployment");
                unregister(server, name);
            } catch (JMException e) {
                LOG.log(Level.WARNING, "could not register the relay MBean " + name, e);
                return null;
            }
        }
        return null;
    }

    /** Removes the MBean; quiet when it is not there. */
    public static void unregister(MBeanServer server, ObjectName name) {
        if (name == null) {
            return;
        }
        try {
            server.unregisterMBean(name);
            LOG.info(() -> "relay MBean unregistered: " + name);
        } catch (InstanceNotFoundException gone) {
            // already gone
        } catch (JMException | RuntimeException e) {
            LOG.log(Level.WARNING, "could not unregister the relay MBean " + name, e);
        }
    }

    private static boolean stale(MBeanServer server, ObjectName name) {
        try {
            return !Boolean.TRUE.equals(server.getAttribute(name, "Running"));
        } catch (JMException | RuntimeException e) {
            return true;
        }
    }
}
