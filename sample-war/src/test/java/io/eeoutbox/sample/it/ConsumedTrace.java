package io.eeoutbox.sample.it;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * What the sample's consumer recorded about the trace of an order's first event when it applied it: the
 * {@code traceparent} the message carried ({@code null} when it had none) and the trace id of the consumer's own span.
 */
public record ConsumedTrace(String receivedTraceparent, String consumerTraceId) {

    /** The order's first event as the consumer recorded it, or {@code null} while the consumer has not applied it. */
    public static ConsumedTrace read(Connection c, String orderId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT received_traceparent, consumer_trace_id"
                + " FROM order_projection_events WHERE order_id = ?::uuid AND position = 1")) {
            ps.setString(1, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new ConsumedTrace(rs.getString(1), rs.getString(2)) : null;
            }
        }
    }
}
