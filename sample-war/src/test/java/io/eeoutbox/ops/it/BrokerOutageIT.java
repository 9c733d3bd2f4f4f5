package io.eeoutbox.ops.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.sample.fault.harness.WildFlyManagement;
import io.eeoutbox.sample.it.Deployments;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 17, item 1, on both servers with the sample application as it ships: while the broker is down, the
 * application keeps taking orders (HTTP 201, rows written), readiness and liveness stay UP, the outage shows in
 * the health check's data and in the metrics (pending grows); once the broker is back every event of the outage is
 * published; the operator console shows the relay waiting for the broker, then running again. The broker goes away as the relay sees it: WildFly's Artemis stops its in-VM acceptor (management
 * API); on Open Liberty, whose embedded engine cannot be stopped at runtime, the relay reaches the engine over TCP
 * through {@link BrokerProxy}, which the test closes, connections and all (test server configuration
 * src/test/server/liberty; docs/servers.md). The test does nothing else to the server.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class BrokerOutageIT {

    private static final Pattern FAILING_FOR = Pattern.compile("every publish failing since [^(]*\\((\\d+) s\\)");
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([0-9a-f-]{36})\"");
    private static final String[] ACCEPTOR = {"subsystem", "messaging-activemq", "server", "default", "in-vm-acceptor", "in-vm"};

    @ArquillianResource
    private URL base;

    /**
     * The packaged sample WAR and, in a jar of its own (ordinal 200, above the WAR's file, below system properties,
     * so WildFly's outbox.relay.jms.connection-factory still wins there), quick health and metrics settings and, on
     * Open Liberty, the connection factory that goes through the proxy.
     */
    @Deployment(testable = false)
    static WebArchive deployment() {
        String config = """
                config_ordinal=200
                outbox.relay.health.unreachable-threshold=PT2S
                outbox.relay.metrics.refresh-interval=PT1S
                """;
        if (ServerUnderTest.current() == ServerUnderTest.LIBERTY) {
            config += "outbox.relay.jms.connection-factory=jms/OutboxRelayOverTcp\n";
        }
        return Deployments.orders(Deployments.NAME).addAsLibrary(ShrinkWrap.create(JavaArchive.class, "broker-outage-config.jar")
                .addAsManifestResource(new StringAsset(config), "microprofile-config.properties"));
    }

    @Test
    void ordersAreTakenAndProbesStayUpWhileTheBrokerIsDownAndNothingIsLost() throws Exception {
        ConsoleHttp console = new ConsoleHttp(base, ConsoleHttp.VIEWER);
        try (Broker broker = Broker.ofServerUnderTest()) {
            assertEquals("running", console.relayState(), "the operator console before the outage");
            List<String> before = List.of(placeOrder("before-outage"));
            Eventually.until(() -> OutboxDb.eventsOf(before), w -> w.rows() == 1 && w.published() == 1,
                    "the relay publishing before the outage");

            List<String> outage = new ArrayList<>();
            broker.stop();
            try {
                outage.add(placeOrder("outage-1"));
                outage.add(placeOrder("outage-2"));
                HttpResponse<String> ready = Eventually.until(() -> get(ServerUnderTest.current().health("ready")),
                        BrokerOutageIT::failingLongerThanTheThreshold,
                        "the health data showing every publish failing, longer than the 2 s threshold");
                assertEquals(200, ready.statusCode(), "readiness stays UP while only the broker is down: " + ready.body());
                assertTrue(compact(ready.body()).contains("\"status\":\"UP\""), ready.body());
                HttpResponse<String> live = get(ServerUnderTest.current().health("live"));
                assertEquals(200, live.statusCode(), "liveness stays UP while only the broker is down: " + live.body());

                double pending = Eventually.until(Scrape::now, s -> s.value("outbox_events_pending").orElse(0) >= 2,
                        "outbox_events_pending counting the outage's events").value("outbox_events_pending").orElseThrow();
                outage.add(placeOrder("outage-3"));
                outage.add(placeOrder("outage-4"));
                Scrape grown = Eventually.until(Scrape::now, s -> s.value("outbox_events_pending").orElse(0) >= pending + 2,
                        "outbox_events_pending growing with the orders taken during the outage");
                assertTrue(grown.value("outbox_oldest_pending_age_seconds").orElseThrow() > 0, grown.outboxLines());

                OutboxDb.Written written = OutboxDb.eventsOf(outage);
                assertEquals(4, written.rows(), "every order taken during the outage wrote its event");
                assertEquals(0, written.published(), "nothing published while the broker is down");
                assertEquals(200, get(ServerUnderTest.current().health("ready")).statusCode(), "readiness still UP");
                assertEquals("waiting-for-broker", Eventually.until(console::relayState, "waiting-for-broker"::equals,
                        "the operator console showing the relay waiting for the broker"));
                RelayAdminJmxIT.report("broker outage on " + ServerUnderTest.current() + ": " + compact(ready.body())
                        + " pending " + pending + " -> " + grown.value("outbox_events_pending").orElseThrow());
            } finally {
                broker.start();
            }

            Eventually.until(() -> OutboxDb.eventsOf(outage), w -> w.published() == outage.size(),
                    "every event of the outage published once the broker is back");
            for (String id : outage) {
                Eventually.until(() -> get(URI.create(root() + "api/projection/" + id)), r -> r.statusCode() == 200,
                        "the consumer's projection of order " + id + " taken during the outage");
            }
            Eventually.until(() -> get(ServerUnderTest.current().health("ready")),
                    r -> compact(r.body()).contains("\"broker\":\"reachable\""), "the broker reachable again in the health data");
            assertEquals("running", Eventually.until(console::relayState, "running"::equals,
                    "the operator console showing the relay running again"));
        }
    }

    /** POST /api/orders, which must answer 201; the order's id. */
    private String placeOrder(String customer) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(root() + "api/orders"))
                        .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"customerId\":\"" + customer + "\",\"total\":3.25}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), "the order of " + customer + " is taken: " + r.body());
        Matcher m = ID.matcher(r.body());
        assertTrue(m.find(), r.body());
        return m.group(1);
    }

    private String root() {
        String b = base.toString();
        return b.endsWith("/") ? b : b + "/";
    }

    private static boolean failingLongerThanTheThreshold(HttpResponse<String> r) {
        Matcher m = FAILING_FOR.matcher(r.body());
        return m.find() && Long.parseLong(m.group(1)) > 2;
    }

    private static HttpResponse<String> get(URI uri) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String compact(String json) {
        return json.replaceAll("\\s+", "");
    }

    /** The broker as the relay reaches it, on the server under test. */
    private interface Broker extends AutoCloseable {

        void stop() throws Exception;

        void start() throws Exception;

        static Broker ofServerUnderTest() throws Exception {
            if (ServerUnderTest.current() == ServerUnderTest.WILDFLY) {
                WildFlyManagement management = WildFlyManagement.onLocalPort(Integer.getInteger("wildfly.management-port"),
                        ServerUnderTest.ADMIN_USER, ServerUnderTest.ADMIN_PASSWORD);
                return new Broker() {
                    @Override
                    public void stop() throws Exception {
                        management.run("stop", ACCEPTOR);
                    }

                    @Override
                    public void start() throws Exception {
                        management.run("start", ACCEPTOR);
                    }

                    @Override
                    public void close() {
                    }
                };
            }
            // src/test/server/liberty: the engine at the HTTP port + 6, the relay's factory at the HTTP port + 7
            int http = Integer.getInteger("liberty.http-port");
            BrokerProxy proxy = new BrokerProxy(http + 7, http + 6);
            proxy.open();
            return new Broker() {
                @Override
                public void stop() throws Exception {
                    proxy.cut();
                }

                @Override
                public void start() throws Exception {
                    proxy.open();
                }

                @Override
                public void close() throws Exception {
                    proxy.close();
                }
            };
        }
    }
}
