package io.eeoutbox.sample.infrastructure.persistence;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The second, non-JTA datasource (same database) that the outbox relay works with: its connections
 * never join the caller's transaction, so the relay commits its claims and marks by itself.
 * <p>The application declares the reference under the portable name {@link #JNDI_NAME}; each server's
 * binding file maps it to the server's datasource: {@code WEB-INF/jboss-web.xml} to WildFly's
 * {@code java:/jdbc/OutboxRelay}, {@code WEB-INF/ibm-web-bnd.xml} to Liberty's {@code jdbc/OutboxRelay}.
 * (A {@code lookup = "jdbc/OutboxRelay"} is not portable: WildFly reads a name without a scheme as
 * {@code java:comp/env/jdbc/OutboxRelay}.)
 */
@ApplicationScoped
@Resource(name = RelayDataSource.JNDI_NAME, type = DataSource.class)
public class RelayDataSource {

    public static final String JNDI_NAME = "java:app/jdbc/OutboxRelay";

    @Resource(lookup = JNDI_NAME)
    private DataSource dataSource;

    public Connection getConnection() throws SQLException {
        return dataSource.getConnection();
    }
}
