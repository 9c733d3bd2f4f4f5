package io.eeoutbox.ops.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eeoutbox.sample.it.db.Migrations;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two WARs on one server, each with its relay and its outbox in its own schema of one database (issue 34; docs/schema.md,
 * "Several outboxes in one database"): the observability tests' WAR on the server's relay data source (schema public)
 * and a second one whose {@code web.xml} declares its relay's data source with PgJDBC's {@code currentSchema=app_b}.
 * Each relay publishes its own schema's events and no other's, listens on its schema's NOTIFY channel
 * ({@code outbox_event}, {@code outbox_event_app_b}) and registers as a waiter in its own schema.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class OutboxPerSchemaInServerIT {

    private static final String A = "schema-public";
    private static final String B = "schema-app-b";
    private static final String SCHEMA_B = "app_b";

    @Deployment(name = A, managed = false, testable = false)
    static WebArchive inPublic() {
        return OpsDeployment.war("relay-schema-public.war", "ops-it");
    }

    @Deployment(name = B, managed = false, testable = false)
    static WebArchive inAppB() {
        return OpsDeployment.withWebXml("relay-schema-app-b.war", "per-schema-it", webXml());
    }

    @ArquillianResource
    private Deployer deployer;

    @Test
    void twoWarsRelayTheirOwnSchemasOutboxOnTheirOwnChannel() throws Exception {
        createOutboxInSchemaB();
        deployer.deploy(A);
        deployer.deploy(B);
        try {
            UUID inB = recordInB("ops.per-schema-b");
            UUID inPublic = OutboxDb.recordEvent("ops.per-schema-public");
            Eventually.until(() -> processedInB(inB), Optional::isPresent, "the app_b WAR's relay publishing app_b's event");
            Eventually.until(() -> OutboxDb.processedAt(inPublic), Optional::isPresent,
                    "the public WAR's relay publishing public's event");
            Eventually.until(() -> OutboxDb.count(listening("outbox_event_app_b")), n -> n == 1,
                    "the app_b WAR's relay listening on app_b's channel");
            Eventually.until(() -> OutboxDb.count(listening("outbox_event")), n -> n >= 1,
                    "the public WAR's relay listening on outbox_event");
            Eventually.until(() -> OutboxDb.count("SELECT count(*) FROM " + SCHEMA_B
                    + ".outbox_relay_waiters WHERE relay_name = 'ops-app-b'"), n -> n == 1,
                    "the idle app_b relay registered in app_b");
            assertEquals(0, OutboxDb.count("SELECT count(*) FROM public.outbox_relay_waiters WHERE relay_name = 'ops-app-b'"),
                    "the app_b relay registered in public");
            assertEquals(0, OutboxDb.count("SELECT count(*) FROM " + SCHEMA_B + ".outbox_events WHERE event_type = "
                    + "'ops.per-schema-public'"), "public's event found in app_b");
            assertEquals(0, OutboxDb.count("SELECT count(*) FROM public.outbox_events WHERE event_type = "
                    + "'ops.per-schema-b'"), "app_b's event found in public");
        } finally {
            deployer.undeploy(B);
            deployer.undeploy(A);
            dropSchemaB();
        }
    }

    /** The suite's other tests share the database: the second outbox goes with its WAR. */
    private static void dropSchemaB() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA_B + " CASCADE");
        }
    }

    /** Backends that LISTEN on {@code channel} and wait (a relay's LISTEN connection between notifications). */
    private static String listening(String channel) {
        return "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle'"
                + " AND query = 'LISTEN " + channel + "'";
    }

    /** ee-outbox's and the sample's migrations in schema app_b of the suite's database. */
    private static void createOutboxInSchemaB() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA_B + " CASCADE");
            s.execute("CREATE SCHEMA " + SCHEMA_B);
            s.execute("SET search_path TO " + SCHEMA_B);
            Migrations.apply(c);
        }
    }

    private static UUID recordInB(String eventType) throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("INSERT INTO " + SCHEMA_B
                + ".outbox_events (id, aggregate_type, aggregate_id, event_type, payload) VALUES (?, 'ops', 'b-1', ?, '{}')")) {
            UUID id = UUID.randomUUID();
            ps.setObject(1, id);
            ps.setString(2, eventType);
            ps.executeUpdate();
            return id;
        }
    }

    private static Optional<java.time.Instant> processedInB(UUID id) throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("SELECT processed_at FROM " + SCHEMA_B
                + ".outbox_events WHERE id = ?")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getObject(1, java.time.OffsetDateTime.class))
                        .map(java.time.OffsetDateTime::toInstant) : Optional.empty();
            }
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(System.getProperty("outbox.db.url"), System.getProperty("outbox.db.user"),
                System.getProperty("outbox.db.password"));
    }

    /** The second WAR's web.xml: its relay's data source, non-transactional, on schema app_b; a queue of its own. */
    private static String webXml() {
        String password = System.getProperty("outbox.db.password");
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee"
                         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                         xsi:schemaLocation="https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/web-app_6_0.xsd"
                         version="6.0">
                  <data-source>
                    <name>java:app/jdbc/OutboxRelay</name>
                    <class-name>org.postgresql.ds.PGSimpleDataSource</class-name>
                    <url>%s</url>
                    <user>%s</user>
                    %s
                    <property><name>currentSchema</name><value>%s</value></property>
                    <transactional>false</transactional>
                  </data-source>
                  <jms-destination>
                    <name>java:app/jms/OutboxEvents</name>
                    <interface-name>jakarta.jms.Queue</interface-name>
                    <destination-name>OutboxOpsEventsAppB</destination-name>
                  </jms-destination>
                </web-app>
                """.formatted(xml(System.getProperty("outbox.db.url")), xml(System.getProperty("outbox.db.user")),
                password == null || password.isEmpty() ? "" : "<password>" + xml(password) + "</password>", SCHEMA_B);
    }

    private static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
