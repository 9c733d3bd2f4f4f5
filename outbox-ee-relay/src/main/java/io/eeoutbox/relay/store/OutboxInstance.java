package io.eeoutbox.relay.store;

import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.jpa.generated.OutboxInstanceRow;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Which outbox a relay serves, when several schemas of one database hold one each: the NOTIFY channel the schema's
 * insert trigger notifies and the advisory lock key of its maintenance (schema V15, {@code outbox_instance}, fixed
 * by the migration from the schema it ran in; docs/schema.md, "Several outboxes in one database"). Read once, on the
 * relay's data source, the first time a relay needs it (its LISTEN connection, its first cleanup), and again only
 * while that read fails: a database that is down at start delays nothing but the read.
 *
 * <p>Without V15 the table is missing and the keys are the database-wide ones every earlier version used: the channel
 * {@code outbox.relay.notify.channel} names (default {@code outbox_event}) and {@link #DATABASE_WIDE_MAINTENANCE_KEY}.
 * With V15 the table's channel is the trigger's, so it wins over the setting, which is then only checked: a different
 * value that is not the default is logged once.
 */
public final class OutboxInstance {

    /** The maintenance lock key of every outbox before V15, and of the public schema's with it ("eeoutbox"). */
    public static final long DATABASE_WIDE_MAINTENANCE_KEY = 0x65656f7574626f78L;

    private static final Logger LOG = Logger.getLogger(OutboxInstance.class.getName());
    private static final Pattern CHANNEL = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final String UNDEFINED_TABLE = "42P01";

    /** This outbox's keys; {@code schema} is null without V15. */
    public record Keys(String schema, String channel, long maintenanceLockKey) {
    }

    private final DataSource dataSource;
    private final String relayName;
    private final String configuredChannel;
    private final String defaultChannel;
    private volatile Keys keys;

    /**
     * @param dataSource        the relay's data source, or null (no database: the database-wide keys)
     * @param configuredChannel {@code outbox.relay.notify.channel}
     * @param defaultChannel    that setting's default
     */
    public OutboxInstance(DataSource dataSource, String relayName, String configuredChannel, String defaultChannel) {
        this.dataSource = dataSource;
        this.relayName = relayName;
        this.configuredChannel = configuredChannel;
        this.defaultChannel = defaultChannel;
        if (dataSource == null) {
            keys = new Keys(null, configuredChannel, DATABASE_WIDE_MAINTENANCE_KEY);
        }
    }

    /** This outbox's keys, read on first use. */
    public Keys keys() throws SQLException {
        Keys known = keys;
        if (known != null) {
            return known;
        }
        synchronized (this) {
            if (keys == null) {
                keys = read();
            }
            return keys;
        }
    }

    /** The channel to LISTEN on. */
    public String channel() throws SQLException {
        return keys().channel();
    }

    /** The advisory lock key of this outbox's cleanup. */
    public long maintenanceLockKey() throws SQLException {
        return keys().maintenanceLockKey();
    }

    private Keys read() throws SQLException {
        Optional<OutboxInstanceRow> row;
        try (Connection c = dataSource.getConnection()) {
            row = new OutboxEventJdbc(c).outboxInstance();
        } catch (SQLException e) {
            if (!UNDEFINED_TABLE.equals(e.getSQLState())) {
                throw e;
            }
            LOG.fine(() -> "relay " + relayName + ": no outbox_instance (schema V15): NOTIFY channel " + configuredChannel
                    + " and the database-wide maintenance lock");
            return new Keys(null, configuredChannel, DATABASE_WIDE_MAINTENANCE_KEY);
        }
        OutboxInstanceRow r = row.orElseThrow(() -> new SQLException("outbox_instance has no row (schema V15 inserts it)"));
        if (r.notifyChannel() == null || !CHANNEL.matcher(r.notifyChannel()).matches() || r.maintenanceLockKey() == null) {
            throw new SQLException("outbox_instance holds no valid channel and key: " + r);
        }
        Keys read = new Keys(r.schemaName(), r.notifyChannel(), r.maintenanceLockKey());
        if (!configuredChannel.equals(read.channel()) && !configuredChannel.equals(defaultChannel)) {
            LOG.log(Level.WARNING, () -> "relay " + relayName + ": outbox.relay.notify.channel=" + configuredChannel
                    + " is not the channel of this outbox's insert trigger, " + read.channel() + " (schema " + read.schema()
                    + ", table outbox_instance, V15): listening on " + read.channel());
        }
        LOG.info(() -> "relay " + relayName + ": the outbox of schema " + read.schema() + ", NOTIFY channel "
                + read.channel());
        return read;
    }
}
