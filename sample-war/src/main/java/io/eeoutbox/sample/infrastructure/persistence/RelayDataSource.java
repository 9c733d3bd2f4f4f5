package io.eeoutbox.sample.infrastructure.persistence;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Declares the second, non-JTA datasource (same database) under the portable name the outbox relay
 * looks up by default ({@value #JNDI_NAME}, key {@code outbox.relay.datasource}): its connections
 * never join a caller's transaction, so the relay commits its claims and marks by itself.
 * <p>Each server's binding file maps the name to the server's datasource: {@code WEB-INF/jboss-web.xml}
 * to WildFly's {@code java:/jdbc/OutboxRelay}, {@code WEB-INF/ibm-web-bnd.xml} to Liberty's
 * {@code jdbc/OutboxRelay}. (A {@code lookup = "jdbc/OutboxRelay"} is not portable: WildFly reads a name
 * without a scheme as {@code java:comp/env/jdbc/OutboxRelay}.)
 */
@ApplicationScoped
@Resource(name = RelayDataSource.JNDI_NAME, type = DataSource.class)
public class RelayDataSource {

    public static final String JNDI_NAME = "java:app/jdbc/OutboxRelay";

    @Resource(lookup = JNDI_NAME)
    private DataSource dataSource;

    /** A connection in auto-commit mode, outside any JTA transaction (for reads that must see committed rows). */
    public Connection getConnection() throws SQLException {
        return dataSource.getConnection();
    }
}
