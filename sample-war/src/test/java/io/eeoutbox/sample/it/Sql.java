package io.eeoutbox.sample.it;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Reads of the sample's database for the in-server tests, outside any transaction: only committed rows count. */
final class Sql {

    private Sql() {
    }

    /** Where the connections come from (the sample's RelayDataSource, a DataSource). */
    @FunctionalInterface
    interface Connections {
        Connection get() throws SQLException;
    }

    /** The single number {@code sql} answers, with {@code parameters} bound in order. */
    static long count(Connections database, String sql, Object... parameters) throws SQLException {
        try (Connection c = database.get(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
