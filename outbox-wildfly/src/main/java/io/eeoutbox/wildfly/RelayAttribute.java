package io.eeoutbox.wildfly;

import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.jboss.as.controller.AttributeDefinition;
import org.jboss.as.controller.OperationFailedException;
import org.jboss.as.controller.PrimitiveListAttributeDefinition;
import org.jboss.as.controller.PropertiesAttributeDefinition;
import org.jboss.as.controller.SimpleAttributeDefinitionBuilder;
import org.jboss.dmr.ModelNode;
import org.jboss.dmr.ModelType;

/**
 * The attributes of {@code /subsystem=ee-outbox/relay=NAME}, each read from an attribute of the relay's MBean
 * ({@code RelayAdminMXBean} in outbox-ee-relay) when asked ({@code state} derived from two of them for a relay older than
 * its {@code State}). The numbers are
 * registered as metrics, the rest as read-only runtime attributes; {@code paused} is also writable, so that HAL's form
 * can switch it.
 */
enum RelayAttribute {
    STATE("state", ModelType.STRING, "State"),
    APPLICATION("application", ModelType.STRING, "Application"),
    RUNNING("running", ModelType.BOOLEAN, "Running"),
    PAUSED("paused", ModelType.BOOLEAN, "Paused"),
    LISTENING("listening", ModelType.BOOLEAN, "Listening"),
    PUBLISHER("publisher", ModelType.STRING, "Publisher"),
    POLL_INTERVAL("poll-interval", ModelType.STRING, "PollInterval"),
    PENDING("pending", ModelType.LONG, "RefreshedPending"),
    DEAD_LETTERS("dead-letters", ModelType.LONG, "RefreshedDeadLetters"),
    OLDEST_PENDING_AGE_SECONDS("oldest-pending-age-seconds", ModelType.LONG, "RefreshedOldestPendingAgeSeconds"),
    SCHEDULED("scheduled", ModelType.LONG, "RefreshedScheduled"),
    GAUGES_REFRESHED_AT("gauges-refreshed-at", ModelType.STRING, "GaugesRefreshedAt"),
    PUBLISHED_SINCE_START("published-since-start", ModelType.LONG, "PublishedSinceStart"),
    FAILED_SINCE_START("failed-since-start", ModelType.LONG, "FailedSinceStart"),
    DEAD_LETTERED_SINCE_START("dead-lettered-since-start", ModelType.LONG, "DeadLetteredSinceStart"),
    BATCHES_SINCE_START("batches-since-start", ModelType.LONG, "BatchesSinceStart"),
    LAST_BATCH_DURATION_MILLIS("last-batch-duration-millis", ModelType.LONG, "LastBatchDurationMillis"),
    LAST_LOOP_AT("last-loop-at", ModelType.STRING, "LastLoopAt"),
    LAST_ERROR("last-error", ModelType.STRING, "LastError"),
    LAST_ERROR_AT("last-error-at", ModelType.STRING, "LastErrorAt"),
    HELD_DESTINATIONS("held-destinations", ModelType.LIST, "HeldDestinations"),
    SETTINGS("settings", ModelType.OBJECT, "Settings"),
    FLEET_PAUSED("fleet-paused", ModelType.BOOLEAN, "FleetPaused"),
    FLEET_CHANGED_BY("fleet-changed-by", ModelType.STRING, "FleetChangedBy"),
    FLEET("fleet", ModelType.LIST, "Fleet"),
    MODE("mode", ModelType.STRING, "Mode"),
    CDC_SLOT("cdc-slot", ModelType.OBJECT, "CdcSlot");

    private static final String REFRESHED = "Refreshed";

    private final String mbeanAttribute;
    private final boolean metric;
    private final AttributeDefinition definition;

    RelayAttribute(String name, ModelType type, String mbeanAttribute) {
        this.mbeanAttribute = mbeanAttribute;
        this.metric = type == ModelType.LONG;
        this.definition = switch (type) {
            case LIST -> "fleet".equals(name) // a list of objects, one per relay of the outbox
                    ? new SimpleAttributeDefinitionBuilder(name, ModelType.LIST).setRequired(false).setStorageRuntime().build()
                    : new PrimitiveListAttributeDefinition.Builder(name, ModelType.STRING).setRequired(false)
                    .setStorageRuntime().build();
            case OBJECT -> new PropertiesAttributeDefinition.Builder(name, true).setRequired(false).setStorageRuntime()
                    .build();
            default -> new SimpleAttributeDefinitionBuilder(name, type).setRequired(false).setStorageRuntime().build();
        };
    }

    AttributeDefinition definition() {
        return definition;
    }

    boolean metric() {
        return metric;
    }

    /** This attribute of the relay, as a model value: undefined when the MBean says null. */
    ModelNode read(RelayJmx jmx, String relay) throws OperationFailedException {
        if (this == STATE || this == APPLICATION) {
            Object value = jmx.attributeIfPresent(relay, mbeanAttribute);
            if (value != RelayJmx.ABSENT || this == APPLICATION) {
                return value == RelayJmx.ABSENT ? new ModelNode() : toModel(value);
            }
            // a relay older than its State attribute
            boolean running = Boolean.TRUE.equals(jmx.attribute(relay, RUNNING.mbeanAttribute));
            boolean paused = Boolean.TRUE.equals(jmx.attribute(relay, PAUSED.mbeanAttribute));
            return new ModelNode(!running ? "stopped" : paused ? "paused" : "running");
        }
        if (this == MODE || this == CDC_SLOT) { // cdc mode (docs/cdc.md): undefined for a relay older than it
            Object value = jmx.attributeIfPresent(relay, mbeanAttribute);
            return value == RelayJmx.ABSENT ? new ModelNode() : toModel(value);
        }
        if (this == FLEET || this == FLEET_PAUSED || this == FLEET_CHANGED_BY) { // undefined for a relay without a fleet
            Object value = jmx.attributeIfPresent(relay, mbeanAttribute);
            return value == RelayJmx.ABSENT ? new ModelNode() : toModel(value);
        }
        if (mbeanAttribute.startsWith(REFRESHED) || this == GAUGES_REFRESHED_AT) {
            return refreshed(jmx, relay);
        }
        return toModel(jmx.attribute(relay, mbeanAttribute));
    }

    /**
     * The row counts as the relay's background refresh last read them, so that a read of the model never waits on the
     * database; undefined before the first refresh. A relay older than these attributes is asked the live ones
     * ({@code Pending}, ...), which query the database.
     */
    private ModelNode refreshed(RelayJmx jmx, String relay) throws OperationFailedException {
        Object value = jmx.attributeIfPresent(relay, mbeanAttribute);
        if (value == RelayJmx.ABSENT) {
            return this == GAUGES_REFRESHED_AT ? new ModelNode()
                    : toModel(jmx.attribute(relay, mbeanAttribute.substring(REFRESHED.length())));
        }
        return value instanceof Long n && n < 0 ? new ModelNode() : toModel(value);
    }

    static ModelNode toModel(Object value) {
        ModelNode node = new ModelNode();
        if (value instanceof Boolean b) {
            node.set(b);
        } else if (value instanceof Long l) {
            node.set(l);
        } else if (value instanceof Integer i) {
            node.set(i);
        } else if (value instanceof TabularData table) {
            node.setEmptyObject();
            for (Object row : table.values()) {
                CompositeData entry = (CompositeData) row;
                Object v = entry.get("value");
                node.get(String.valueOf(entry.get("key"))).set(v == null ? "" : v.toString());
            }
        } else if (value instanceof TabularData[] rows) {
            node.setEmptyList();
            for (TabularData row : rows) {
                node.add(toModel(row));
            }
        } else if (value instanceof String[] list) {
            node.setEmptyList();
            for (String line : list) {
                node.add(line);
            }
        } else if (value != null) {
            node.set(value.toString());
        }
        return node;
    }
}
