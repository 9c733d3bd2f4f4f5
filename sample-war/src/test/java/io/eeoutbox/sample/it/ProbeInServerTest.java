package io.eeoutbox.sample.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.sample.application.ProbeFailure;
import io.eeoutbox.sample.application.ProbeService;
import io.eeoutbox.sample.domain.ProbeItem;
import io.eeoutbox.sample.infrastructure.messaging.ProbeDestinations;
import io.eeoutbox.sample.infrastructure.messaging.ProbeEventSender;
import io.eeoutbox.sample.infrastructure.persistence.RelayDataSource;
import io.eeoutbox.sample.infrastructure.scheduling.Heartbeat;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.transaction.UserTransaction;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The probe, in the server: every Jakarta EE feature the orders sample and the outbox relay rely on,
 * checked the way a user would see it (rows in the database, messages on a queue). Run on WildFly
 * by profile {@code wildfly} and on Open Liberty by profile {@code liberty}.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class ProbeInServerTest {

    private static final Logger LOG = Logger.getLogger(ProbeInServerTest.class.getName());
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @Deployment
    static WebArchive deployment() {
        return Deployments.probe();
    }

    @EJB
    private ProbeService probes;

    @EJB
    private Heartbeat heartbeat;

    @Inject
    private ProbeEventSender sender;

    @Inject
    private RelayDataSource relay;

    @Resource(lookup = ProbeDestinations.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = ProbeDestinations.INSPECTION)
    private Queue inspection;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    private ManagedExecutorService executor;

    // ------------------------------------------------------------------ from outside: HTTP, then JDBC

    @Test
    @RunAsClient
    void postThroughRestCommitsARowVisibleOverJdbc(@ArquillianResource URL base) throws Exception {
        String label = "rest-" + UUID.randomUUID();
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(base + "api/probe"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"label\":\"" + label + "\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(201, response.statusCode(), response.body());
        Matcher id = Pattern.compile("\"id\"\\s*:\\s*\"([0-9a-f-]{36})\"").matcher(response.body());
        assertTrue(id.find(), response.body());
        // the test JVM reads the same database as the server (TestDatabaseSession)
        try (Connection c = DriverManager.getConnection(System.getProperty("outbox.db.url"),
                System.getProperty("outbox.db.user"), System.getProperty("outbox.db.password"));
             PreparedStatement ps = c.prepareStatement("SELECT label, source FROM probe_items WHERE id = ?")) {
            ps.setObject(1, UUID.fromString(id.group(1)));
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "row " + id.group(1) + " is committed");
                assertEquals(label, rs.getString(1));
                assertEquals("REST", rs.getString(2));
            }
        }
    }

    // ------------------------------------------------------------------ EJB + JPA + JTA

    @Test
    void ejbCallCommitsItsRow() throws Exception {
        String label = "ejb-" + UUID.randomUUID();
        probes.record(label, ProbeItem.Source.REST);
        assertEquals(1, countRows(label));
    }

    @Test
    void ejbCallThatThrowsRollsBack() throws Exception {
        String label = "rollback-" + UUID.randomUUID();
        assertThrows(ProbeFailure.class, () -> probes.recordThenFail(label));
        assertEquals(0, countRows(label), "the flushed insert was rolled back");
    }

    @Test
    void relayDataSourceNeverJoinsTheCallersTransaction() throws Exception {
        String label = "relay-" + UUID.randomUUID();
        UserTransaction tx = InitialContext.doLookup("java:comp/UserTransaction");
        tx.begin();
        try (Connection c = relay.getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "INSERT INTO probe_items (id, label, source) VALUES (?, ?, 'REST')")) {
            ps.setObject(1, UUID.randomUUID());
            ps.setString(2, label);
            ps.executeUpdate();
        } finally {
            tx.rollback();
        }
        assertEquals(1, countRows(label), "the non-JTA insert survives the JTA rollback");
    }

    @Test
    void portableNamesResolveOnThisServer() throws Exception {
        InitialContext naming = new InitialContext();
        assertTrue(naming.lookup(RelayDataSource.JNDI_NAME) instanceof javax.sql.DataSource);
        assertTrue(naming.lookup(ProbeDestinations.OUTBOX_EVENTS) instanceof Queue);
        assertTrue(naming.lookup(ProbeDestinations.CONNECTION_FACTORY) instanceof ConnectionFactory);
        assertTrue(naming.lookup("java:comp/DefaultManagedScheduledExecutorService")
                instanceof jakarta.enterprise.concurrent.ManagedScheduledExecutorService);
        // the servers' own names, for the record: InitialContext finds "jdbc/..." on both
        for (String name : List.of("jdbc/OutboxRelay", "jdbc/Outbox")) {
            String found;
            try {
                found = String.valueOf(naming.lookup(name));
            } catch (NamingException e) {
                found = "NOT FOUND: " + e;
            }
            report("lookup " + name + " -> " + found);
        }
    }

    // ------------------------------------------------------------------ JMS + MDB

    @Test
    void messageSentToTheQueueReachesTheMdb() throws Exception {
        String label = "jms-" + UUID.randomUUID();
        sender.send(label);
        Await.until(PATIENCE, () -> countRows(label), n -> n == 1, "the MDB to record " + label);
    }

    // ------------------------------------------------------------------ Concurrency

    @Test
    void scheduledTaskRunsPeriodically() throws Exception {
        long first = Await.until(PATIENCE, heartbeat::beats, n -> n >= 1, "a first heartbeat");
        Await.until(PATIENCE, heartbeat::beats, n -> n >= first + 2, "two more heartbeats");
        assertNull(heartbeat.lastError(), "the heartbeat reads the outbox through the relay datasource");
        assertTrue(heartbeat.pendingOutboxEvents() >= 0);
    }

    // ------------------------------------------------------------------ what the relay needs from JMS

    /**
     * The relay's batch: sent on a managed thread inside a UserTransaction, the messages are
     * delivered all together on commit and not at all on rollback.
     */
    @Test
    void batchSentInUserTransactionOnManagedThreadIsAtomic() throws Exception {
        String run = UUID.randomUUID().toString();
        executor.submit(() -> {
            UserTransaction tx = InitialContext.doLookup("java:comp/UserTransaction");
            tx.begin();
            try (JMSContext jms = connectionFactory.createContext()) {
                sendBatch(jms, run, "rolled-back", 3);
            }
            tx.rollback();
            tx.begin();
            try (JMSContext jms = connectionFactory.createContext()) {
                sendBatch(jms, run, "committed", 3);
            }
            tx.commit();
            return null;
        }).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);

        List<String> received = drain("run = '" + run + "'");
        report("UserTransaction on managed thread: received " + received);
        assertEquals(List.of("committed-0", "committed-1", "committed-2"), received);
    }

    /**
     * Without JTA on a managed thread, a locally transacted session is server-specific: WildFly's
     * Artemis resource adapter refuses it (allow-local-transactions is off on the pooled connection
     * factory), Open Liberty honours it (rollback discards, commit delivers). The relay therefore
     * uses a UserTransaction, which behaves the same on both.
     */
    @Test
    void transactedSessionWithoutJtaOnManagedThread() throws Exception {
        String run = UUID.randomUUID().toString();
        String outcome = executor.submit(() -> {
            StringBuilder what = new StringBuilder();
            try (JMSContext jms = connectionFactory.createContext(JMSContext.SESSION_TRANSACTED)) {
                what.append("sessionMode=").append(jms.getSessionMode())
                        .append(" transacted=").append(jms.getTransacted());
                sendBatch(jms, run, "rolled-back", 2);
                jms.rollback();
                sendBatch(jms, run, "committed", 2);
                jms.commit();
                what.append(" commit/rollback accepted");
            } catch (RuntimeException e) {
                what.append("refused: ").append(e);
            }
            return what.toString();
        }).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);

        List<String> received = drain("run = '" + run + "'");
        report("SESSION_TRANSACTED without JTA on managed thread: " + outcome + "; received " + received);
        if ("wildfly".equals(serverName())) {
            assertTrue(outcome.startsWith("refused: jakarta.jms.JMSRuntimeException"), outcome);
            assertEquals(List.of(), received);
        } else {
            assertTrue(outcome.endsWith("commit/rollback accepted"), outcome);
            assertEquals(List.of("committed-0", "committed-1"), received, "the rolled-back sends are discarded");
        }
    }

    /** Artemis drops a second message whose _AMQ_DUPL_ID it has already seen on that address. */
    @Test
    void duplicateIdProperty() throws Exception {
        String run = UUID.randomUUID().toString();
        String duplicateId = "dup-" + run;
        try (JMSContext jms = connectionFactory.createContext()) {
            for (int i = 0; i < 2; i++) {
                JMSProducer producer = jms.createProducer()
                        .setProperty("run", run)
                        .setProperty("_AMQ_DUPL_ID", duplicateId);
                producer.send(inspection, "copy-" + i);
            }
        }
        List<String> received = drain("run = '" + run + "'");
        report("two sends with the same _AMQ_DUPL_ID: received " + received);
        if ("wildfly".equals(serverName())) {
            assertEquals(List.of("copy-0"), received, "Artemis' duplicate detection");
        } else {
            assertEquals(2, received.size(), "no duplicate detection on Liberty's messaging engine");
        }
    }

    // ------------------------------------------------------------------ helpers

    private void sendBatch(JMSContext jms, String run, String prefix, int n) {
        for (int i = 0; i < n; i++) {
            jms.createProducer().setProperty("run", run).send(inspection, prefix + "-" + i);
        }
    }

    private List<String> drain(String selector) throws Exception {
        List<String> bodies = new ArrayList<>();
        try (JMSContext jms = connectionFactory.createContext(JMSContext.AUTO_ACKNOWLEDGE);
             JMSConsumer consumer = jms.createConsumer(inspection, selector)) {
            Message m = consumer.receive(3000);
            while (m != null) {
                bodies.add(m.getBody(String.class));
                m = consumer.receive(1000);
            }
        }
        bodies.sort(null);
        return bodies;
    }

    private long countRows(String label) throws SQLException {
        try (Connection c = relay.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM probe_items WHERE label = ?")) {
            ps.setString(1, label);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static String serverName() {
        // the test runs inside the server: WildFly sets jboss.home.dir
        return System.getProperty("jboss.home.dir") != null ? "wildfly" : "liberty";
    }

    private static void report(String line) {
        String server = serverName();
        LOG.info("[probe " + server + "] " + line);
        System.out.println("[probe " + server + "] " + line);
    }
}
