package io.eeoutbox.sample.fault.hook;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.RelayListener;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Records every message the relay had accepted by the broker, with the relay's name and the instant,
 * in {@code fault_publish_log}: the suite finds events published twice (by one relay after a crash,
 * or by two relays) and checks the per-aggregate publish order across servers. Rows are written in
 * one statement per batch through the relay's own non-JTA datasource.
 */
@ApplicationScoped
public class PublishLog implements RelayListener {

    private static final Logger LOG = Logger.getLogger(PublishLog.class.getName());

    private record Entry(UUID eventId, long seq, String aggregateId, String eventType, int attempt, Instant at) {
    }

    @Resource(lookup = "java:app/jdbc/OutboxRelay")
    private DataSource dataSource;

    private final ConcurrentLinkedQueue<Entry> pending = new ConcurrentLinkedQueue<>();

    @Override
    public void published(OutboxMessage m) {
        pending.add(new Entry(m.id(), m.seq(), m.aggregateId(), m.eventType(), m.attempt(), Instant.now()));
    }

    @Override
    public void batchCompleted(int claimed, int published, int failed, java.time.Duration elapsed) {
        flush();
    }

    private void flush() {
        List<Entry> batch = new ArrayList<>();
        for (Entry e; (e = pending.poll()) != null; ) {
            batch.add(e);
        }
        if (batch.isEmpty()) {
            return;
        }
        String relay = System.getProperty("outbox.relay.name", "unnamed");
        try (Connection c = dataSource.getConnection();
             PreparedStatement s = c.prepareStatement("INSERT INTO fault_publish_log"
                     + " (event_id, seq, aggregate_id, event_type, attempt, relay, published_at)"
                     + " SELECT * FROM unnest(?::uuid[], ?::bigint[], ?::varchar[], ?::varchar[], ?::int[],"
                     + " array_fill(?::varchar, ARRAY[?]), ?::timestamptz[])")) {
            s.setArray(1, c.createArrayOf("uuid", batch.stream().map(Entry::eventId).toArray()));
            s.setArray(2, c.createArrayOf("bigint", batch.stream().map(Entry::seq).toArray()));
            s.setArray(3, c.createArrayOf("varchar", batch.stream().map(Entry::aggregateId).toArray()));
            s.setArray(4, c.createArrayOf("varchar", batch.stream().map(Entry::eventType).toArray()));
            s.setArray(5, c.createArrayOf("int4", batch.stream().map(Entry::attempt).toArray()));
            s.setString(6, relay);
            s.setInt(7, batch.size());
            s.setArray(8, c.createArrayOf("timestamptz",
                    batch.stream().map(e -> Timestamp.from(e.at())).toArray()));
            s.executeUpdate();
            if (!c.getAutoCommit()) {
                c.commit();
            }
        } catch (SQLException | RuntimeException e) {
            // the suite sees the gap (a published event without a log row) and reports it
            LOG.log(Level.WARNING, "fault suite: could not record " + batch.size() + " published events", e);
        }
    }
}
