package io.eeoutbox.sample.kafka;

import io.eeoutbox.sample.it.ConsumedTrace;
import io.eeoutbox.sample.setup.SetupDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * {@link KafkaSampleIT}'s database of its own ({@link SetupDatabase}) and the questions the test asks of it.
 */
final class KafkaItDatabase implements AutoCloseable {

    private final SetupDatabase db;

    private KafkaItDatabase(SetupDatabase db) {
        this.db = db;
    }

    /** {@code name}: a PostgreSQL identifier of lower-case letters, digits and underscores. */
    static KafkaItDatabase create(String name) throws Exception {
        return new KafkaItDatabase(SetupDatabase.create(name));
    }

    String url() {
        return db.url();
    }

    String user() {
        return db.user();
    }

    String password() {
        return db.password();
    }

    /** The ids of the orders' events that the relay has marked published. */
    Set<String> publishedEventIds(Collection<String> orderIds) throws SQLException {
        return eventIds(orderIds, " AND processed_at IS NOT NULL");
    }

    /** The ids of all the orders' events in the outbox, published or not. */
    Set<String> eventIds(Collection<String> orderIds) throws SQLException {
        return eventIds(orderIds, "");
    }

    private Set<String> eventIds(Collection<String> orderIds, String andCondition) throws SQLException {
        try (Connection c = connect();
             PreparedStatement s = c.prepareStatement("SELECT id FROM outbox_events WHERE aggregate_type = 'order'"
                     + " AND aggregate_id = ANY (?)" + andCondition)) {
            s.setArray(1, c.createArrayOf("varchar", orderIds.toArray()));
            return strings(s);
        }
    }

    /** This database for the CDC tests' helpers (outbox-ee-relay's {@code CdcFiles}). */
    io.eeoutbox.testing.TestDatabase.Db asTestDb() {
        String url = db.url();
        int slash = url.indexOf('/', "jdbc:postgresql://".length());
        int query = url.indexOf('?', slash);
        return io.eeoutbox.testing.TestDatabase.existing(url, db.user(), db.password(),
                url.substring(slash + 1, query < 0 ? url.length() : query));
    }

    /** The orders' events in the consumer's projection. */
    long projectedEvents(Collection<String> orderIds) throws SQLException {
        try (Connection c = connect();
             PreparedStatement s = c.prepareStatement("SELECT count(*) FROM order_projection_events WHERE order_id = ANY (?)")) {
            s.setArray(1, c.createArrayOf("uuid", orderIds.stream().map(UUID::fromString).toArray()));
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    /** Of the given event ids, those in the inbox of consumer order-projection. */
    Set<String> inboxEventIds(Collection<String> eventIds) throws SQLException {
        try (Connection c = connect();
             PreparedStatement s = c.prepareStatement("SELECT event_id FROM processed_events"
                     + " WHERE consumer = 'order-projection' AND event_id = ANY (?)")) {
            s.setArray(1, c.createArrayOf("uuid", eventIds.stream().map(UUID::fromString).toArray()));
            return strings(s);
        }
    }

    /** What the consumer recorded for the order's first event, or null while it has not applied it. */
    ConsumedTrace consumedTrace(String orderId) throws SQLException {
        try (Connection c = connect()) {
            return ConsumedTrace.read(c, orderId);
        }
    }

    private static Set<String> strings(PreparedStatement s) throws SQLException {
        Set<String> out = new HashSet<>();
        try (ResultSet r = s.executeQuery()) {
            while (r.next()) {
                out.add(r.getString(1));
            }
        }
        return out;
    }

    private Connection connect() throws SQLException {
        return db.connect();
    }

    @Override
    public void close() throws SQLException {
        db.close();
    }
}
