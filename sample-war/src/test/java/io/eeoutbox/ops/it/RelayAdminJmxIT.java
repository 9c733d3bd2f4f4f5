package io.eeoutbox.ops.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The relay steered from outside the server, through the server's own remote JMX connector, as an
 * operator with JConsole would: WildFly's remoting over the management port, Liberty's restConnector
 * over HTTPS. Run on both servers by the {@code wildfly} and {@code liberty} profiles.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class RelayAdminJmxIT {

    private static final Logger LOG = Logger.getLogger(RelayAdminJmxIT.class.getName());

    @Deployment(testable = false)
    static WebArchive deployment() {
        return OpsDeployment.war();
    }

    private RemoteJmx jmx;
    private MBeanServerConnection server;
    private final ObjectName relay = OpsDeployment.relayMBean();

    @BeforeEach
    void connect() throws IOException {
        jmx = RemoteJmx.asAdmin();
        server = jmx.connection();
    }

    @AfterEach
    void disconnect() throws Exception {
        if (jmx != null) {
            if (server.isRegistered(relay) && Boolean.TRUE.equals(server.getAttribute(relay, "Paused"))) {
                server.invoke(relay, "resume", null, null);
            }
            jmx.close();
        }
    }

    @Test
    void theRelaysMBeanIsReachableWithItsAttributes() throws Exception {
        assertTrue(server.isRegistered(relay), relay + " on " + ServerUnderTest.current());
        assertEquals(Boolean.TRUE, server.getAttribute(relay, "Running"));
        assertEquals(OpsDeployment.RELAY_NAME, server.getAttribute(relay, "Name"));
        assertEquals("ops-test-jms:java:app/jms/OutboxEvents", server.getAttribute(relay, "Publisher"));
        for (String attribute : new String[] {"Pending", "DeadLetters", "OldestPendingAgeSeconds", "Scheduled", "PublishedSinceStart",
                "FailedSinceStart", "DeadLetteredSinceStart", "BatchesSinceStart", "LastBatchDurationMillis"}) {
            Object value = server.getAttribute(relay, attribute);
            assertTrue(value instanceof Long, attribute + " = " + value);
        }
        report("MBean " + relay + " attributes: Pending=" + server.getAttribute(relay, "Pending") + " DeadLetters="
                + server.getAttribute(relay, "DeadLetters") + " Listening=" + server.getAttribute(relay, "Listening")
                + " PollInterval=" + server.getAttribute(relay, "PollInterval"));
    }

    @Test
    void eventsStayPendingWhilePausedAndArePublishedAfterResume() throws Exception {
        long publishedBefore = (Long) server.getAttribute(relay, "PublishedSinceStart");
        server.invoke(relay, "pause", null, null);
        assertEquals(Boolean.TRUE, server.getAttribute(relay, "Paused"));

        UUID id = OutboxDb.recordEvent("ops.paused");
        server.invoke(relay, "runNow", null, null); // does nothing while paused
        Eventually.until(() -> (Long) server.getAttribute(relay, "Pending"), n -> n >= 1, "Pending to count the new event");
        Thread.sleep(2_000); // four poll intervals of the test relay (PT0.5S) and a NOTIFY: none may publish it
        assertEquals(Optional.empty(), OutboxDb.processedAt(id), "still pending while paused");

        server.invoke(relay, "resume", null, null);
        assertEquals(Boolean.FALSE, server.getAttribute(relay, "Paused"));
        Eventually.until(() -> OutboxDb.processedAt(id), Optional::isPresent, "the event to be published after resume");
        assertTrue((Long) server.getAttribute(relay, "PublishedSinceStart") > publishedBefore);
    }

    @Test
    void aDeadLetterRetriedByIdIsPublished() throws Exception {
        UUID id = OutboxDb.insertDeadLetter("ops.dead");
        Eventually.until(() -> (Long) server.getAttribute(relay, "DeadLetters"), n -> n >= 1, "DeadLetters to count it");
        Thread.sleep(1_000); // two poll intervals: the relay leaves a dead letter alone
        assertEquals(Optional.empty(), OutboxDb.processedAt(id), "a dead letter is not retried by itself");

        Object retried = server.invoke(relay, "retryDeadLetter", new Object[] {id.toString()},
                new String[] {String.class.getName()});
        assertEquals(Boolean.TRUE, retried);
        Eventually.until(() -> OutboxDb.processedAt(id), Optional::isPresent, "the retried dead letter to be published");
        assertEquals(Boolean.FALSE, server.invoke(relay, "retryDeadLetter", new Object[] {id.toString()},
                new String[] {String.class.getName()}), "no dead letter any more");
    }

    @Test
    void deadLettersRetriedByEventTypeArePublished() throws Exception {
        String type = "ops.bulk-" + UUID.randomUUID();
        UUID a = OutboxDb.insertDeadLetter(type);
        UUID b = OutboxDb.insertDeadLetter(type);
        UUID other = OutboxDb.insertDeadLetter("ops.bulk-other-" + UUID.randomUUID());

        Object retried = server.invoke(relay, "retryDeadLetters", new Object[] {type, "ops-test", "", ""},
                new String[] {String.class.getName(), String.class.getName(), String.class.getName(), String.class.getName()});
        assertEquals(2, retried);
        Eventually.until(() -> OutboxDb.processedAt(a).isPresent() && OutboxDb.processedAt(b).isPresent(), done -> done,
                "both retried dead letters to be published");
        assertTrue(OutboxDb.deadAt(other).isPresent(), "a dead letter of another type stays one");
    }

    @Test
    void purgeAndBadArguments() throws Exception {
        Object purged = server.invoke(relay, "purgeProcessedOlderThan", new Object[] {3650}, new String[] {"int"});
        assertEquals(0L, purged, "nothing is ten years old");
        Exception refused = assertThrows(Exception.class, () -> server.invoke(relay, "retryDeadLetter",
                new Object[] {"not-a-uuid"}, new String[] {String.class.getName()}));
        assertTrue(messages(refused).contains("UUID"), messages(refused));
    }

    @Test
    void callersWithoutValidCredentialsAreRefused() throws Exception {
        Exception anonymous = assertThrows(Exception.class, () -> {
            try (RemoteJmx unauthenticated = RemoteJmx.connect(null)) {
                unauthenticated.connection().getAttribute(relay, "Pending");
            }
        });
        report("anonymous JMX client refused: " + messages(anonymous));
        Exception wrongPassword = assertThrows(Exception.class, () -> {
            try (RemoteJmx wrong = RemoteJmx.connect(new String[] {ServerUnderTest.ADMIN_USER, "wrong-password"})) {
                wrong.connection().invoke(relay, "pause", null, null);
            }
        });
        report("wrong password refused: " + messages(wrongPassword));
        assertEquals(Boolean.FALSE, server.getAttribute(relay, "Paused"), "no refused caller paused the relay");

        if (ServerUnderTest.current() == ServerUnderTest.LIBERTY) {
            // the connector's REST endpoint itself, without any Authorization header
            HttpClient https = HttpClient.newBuilder().sslContext(RemoteJmx.trustingLibertysCertificate())
                    .connectTimeout(Duration.ofSeconds(10)).build();
            URI mbeans = URI.create("https://localhost:" + System.getProperty("liberty.https-port")
                    + "/IBMJMXConnectorREST/mbeans");
            HttpResponse<String> response = https.send(HttpRequest.newBuilder(mbeans).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, response.statusCode(), response.body());
        }
    }

    private static String messages(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null && sb.length() < 2000; c = c.getCause() == c ? null : c.getCause()) {
            sb.append(c.getClass().getName()).append(": ").append(c.getMessage()).append(" | ");
        }
        return sb.toString();
    }

    static void report(String line) {
        String text = "[ops " + ServerUnderTest.current().name().toLowerCase() + "] " + line;
        LOG.info(text);
        System.out.println(text);
    }
}
