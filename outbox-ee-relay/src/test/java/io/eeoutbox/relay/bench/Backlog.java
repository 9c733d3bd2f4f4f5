package io.eeoutbox.relay.bench;

import io.eeoutbox.jpa.generated.OutboxEventSql;
import io.eeoutbox.jpa.generated.SqlValues;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.postgresql.ds.PGSimpleDataSource;

/** Writes a backlog of committed, pending events with the generated InsertOutboxEvent statement. */
final class Backlog {

    private Backlog() {
    }

    /** An order-created payload of about 150 bytes, like a small business event. */
    static String payload(String orderId) {
        return "{\"orderId\":\"" + orderId + "\",\"customerId\":\"c-" + (orderId.hashCode() & 0xffff)
                + "\",\"currency\":\"EUR\",\"total\":\"149.90\",\"lines\":[{\"sku\":\"SKU-1\",\"qty\":2},"
                + "{\"sku\":\"SKU-7\",\"qty\":1}]}";
    }

    /**
     * Inserts {@code n} events (one aggregate each) in transactions of 5,000, with JDBC batches the
     * driver rewrites into multi-row inserts; returns their ids.
     */
    static List<UUID> insert(BenchDatabase db, int n) throws SQLException {
        PGSimpleDataSource ds = db.db().dataSource();
        ds.setReWriteBatchedInserts(true);
        try (Connection c = ds.getConnection()) {
            return insert(c, n, "order");
        }
    }

    /**
     * Inserts {@code n} events of the aggregate type given (one aggregate each) on this connection, in
     * transactions of 5,000 (the connection is left in auto-commit mode); returns their ids. Needs
     * nothing but JDBC, so the in-server benchmark uses it too.
     */
    static List<UUID> insert(Connection c, int n, String aggregateType) throws SQLException {
        return insert(c, n, aggregateType, i -> "o-" + i);
    }

    /** Like {@link #insert(BenchDatabase, int)}, event {@code i} of aggregate {@code aggregateId.apply(i)}. */
    static List<UUID> insert(BenchDatabase db, int n, java.util.function.IntFunction<String> aggregateId)
            throws SQLException {
        PGSimpleDataSource ds = db.db().dataSource();
        ds.setReWriteBatchedInserts(true);
        try (Connection c = ds.getConnection()) {
            return insert(c, n, "order", aggregateId);
        }
    }

    private static List<UUID> insert(Connection c, int n, String aggregateType,
                                     java.util.function.IntFunction<String> aggregateId) throws SQLException {
        List<UUID> ids = new ArrayList<>(n);
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement(OutboxEventSql.INSERT_OUTBOX_EVENT)) {
            for (int i = 0; i < n; i++) {
                UUID id = uuidV7();
                String order = aggregateId.apply(i);
                SqlValues.setUuid(ps, 1, id);
                SqlValues.setText(ps, 2, aggregateType);
                SqlValues.setText(ps, 3, order);
                SqlValues.setText(ps, 4, "order.created");
                SqlValues.setJson(ps, 5, payload(order));
                SqlValues.setText(ps, 6, null); // no trace context
                ps.addBatch();
                ids.add(id);
                if ((i + 1) % 1000 == 0) {
                    ps.executeBatch();
                }
                if ((i + 1) % 5000 == 0) {
                    c.commit();
                }
            }
            ps.executeBatch();
            c.commit();
        } finally {
            c.setAutoCommit(true);
        }
        return ids;
    }

    /** A time-ordered UUID (version 7), as OutboxService writes them. */
    static UUID uuidV7() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long msb = (System.currentTimeMillis() & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | (r.nextLong() & 0x0FFFL);
        long lsb = (r.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }
}
