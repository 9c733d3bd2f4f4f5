package io.eeoutbox.relay.store;

import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * The statements of the relay's LISTEN connection (see {@code wake.NotifyListener}), run on that connection
 * itself rather than on one from {@link OutboxStore}: which backend it is ({@code OutboxListenerIdentity}),
 * {@code LISTEN} and {@code UNLISTEN *}. The channel is an identifier, which no statement parameter can carry:
 * the caller checks it.
 */
public final class ListenStatements {

    private ListenStatements() {
    }

    /** The backend of {@code connection} as {@code pg_stat_activity} names it (a pooler may report its own pid). */
    public static Optional<ListenerId> identity(Connection connection) throws SQLException {
        return new OutboxEventJdbc(connection).outboxListenerIdentity()
                .map(row -> new ListenerId(row.listenerPid(), row.listenerStart()));
    }

    /** {@code LISTEN channel}; {@code channel} must be a checked PostgreSQL identifier. */
    public static void listen(Connection connection, String channel) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("LISTEN " + channel);
        }
    }

    /** {@code UNLISTEN *}: the connection no longer receives notifications. */
    public static void unlistenAll(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("UNLISTEN *");
        }
    }
}
