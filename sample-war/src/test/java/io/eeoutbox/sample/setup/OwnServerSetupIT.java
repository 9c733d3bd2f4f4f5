package io.eeoutbox.sample.setup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.sample.demo.DemoServer;
import io.eeoutbox.sample.fault.harness.OrdersApi;
import io.eeoutbox.sample.it.Await;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the README's "Setting up your own server" promises: a server that has only what ee-outbox ships for it
 * (WildFly: {@code docs/setup/wildfly-setup.cli}; Open Liberty: {@code docs/setup/liberty/ee-outbox.xml}) runs the
 * sample unchanged; an order written over HTTP has its event published and consumed.
 * <ul>
 *   <li>WildFly: a copy of the untouched install (the build unpacks {@code wildfly-dist} for it), the script run on
 *       it as a user would, twice (the second run must change nothing), then the server started with the WAR;</li>
 *   <li>Open Liberty: a new server in the provisioned install (its shared libraries are the user's step), whose
 *       server.xml holds only the sample's own features (REST, Jakarta Security), its ports, the WAR's location and the include.</li>
 * </ul>
 * It runs in the failsafe execution of each server ({@code outbox.it.server}), on a database of its own beside the
 * in-server suite's, with one server start.
 */
@Tag("in-server")
class OwnServerSetupIT {

    private static final Duration DEPLOY_PATIENCE = Duration.ofMinutes(5);
    private static final Duration DELIVERY_PATIENCE = Duration.ofSeconds(90);

    private final String product = System.getProperty("outbox.it.server", "");
    private final Path setupDir = Path.of(required("setup.dir")).toAbsolutePath().normalize();
    private final Path work = Path.of(required("setup.work-dir")).resolve(product);

    @Test
    void aServerSetUpFromWhatShipsRunsTheSample() throws Exception {
        Files.createDirectories(work);
        try (SetupDatabase db = SetupDatabase.create("setup_check_" + product);
             DemoServer server = "wildfly".equals(product) ? wildfly() : liberty()) {
            server.start(Path.of(required("setup.war")), db.url(), db.user(), db.password());
            server.awaitDeployed(DEPLOY_PATIENCE);

            OrdersApi api = new OrdersApi(URI.create(server.baseUrl() + "/"));
            OrdersApi.Reply created = api.createOrder("setup-check", "12.50");
            assertTrue(created.isCreated(), "create an order on " + server + ": " + created);
            String orderId = created.id().orElseThrow();

            // published: the relay marked its event processed; consumed: the sample's MDB projected it
            Await.until(DELIVERY_PATIENCE, () -> db.publishedEvents(orderId), n -> n == 1,
                    "the relay to publish order " + orderId + "'s order.created on " + server);
            OrdersApi.Reply projection = Await.until(DELIVERY_PATIENCE, () -> api.getProjection(orderId),
                    r -> r.status() == 200, "the consumer to project order " + orderId + " on " + server);
            assertTrue(projection.body().contains("\"status\":\"NEW\""), projection.toString());
            if ("wildfly".equals(product)) {
                // deployed at boot: the relay's pool size check waits for the boot's end, when WildFly answers it
                Path log = server.logFile();
                Await.until(Duration.ofSeconds(60), () -> Files.readString(log, StandardCharsets.ISO_8859_1),
                        text -> text.contains("connections; the relay holds up to"), "the relay's pool size check in " + log);
                assertFalse(Files.readString(log, StandardCharsets.ISO_8859_1).contains("WFLYCTL0013"),
                        "WildFly logged an error for a read of its management model (WFLYCTL0013) in " + log);
            }
        }
    }

    /** A copy of the untouched install, set up by the shipped script exactly as the README says. */
    private DemoServer wildfly() throws Exception {
        Path home = work.resolve("wildfly");
        Trees.delete(home);
        Trees.copy(Path.of(required("setup.wildfly.pristine")), home);
        Path config = home.resolve("standalone/configuration/standalone-full.xml");

        Cli first = Cli.run(home, setupDir.resolve("wildfly-setup.cli"), work.resolve("cli-first.log"),
                "-Doutbox.setup.driver-jar=" + required("setup.driver-jar"));
        assertEquals(0, first.exitCode(), "the setup script on a fresh WildFly; its output: " + first.output());
        String configured = Files.readString(config);
        for (String expected : List.of("java:/jdbc/Outbox", "java:/jdbc/OutboxRelay", "jta=\"false\"",
                "connection-factory name=\"outbox-relay\"", "jms.queue.OutboxEvents", "periodicRecoveryPeriod",
                "${env.OUTBOX_DB_PASSWORD}")) {
            assertTrue(configured.contains(expected), "standalone-full.xml after the script lacks " + expected);
        }
        assertTrue(Files.exists(home.resolve("modules/org/postgresql/main/module.xml")), "the driver module");

        byte[] before = Files.readAllBytes(config);
        Cli again = Cli.run(home, setupDir.resolve("wildfly-setup.cli"), work.resolve("cli-again.log"));
        assertEquals(0, again.exitCode(), "the script run a second time; its output: " + again.output());
        assertArrayEquals(before, Files.readAllBytes(config), "a second run changed standalone-full.xml");

        int from = Integer.getInteger("wildfly.port-offset", 1100) + 300;
        return DemoServer.wildfly(home, work.resolve("wildfly-run"), DemoServer.freeOffset(true, from, 7));
    }

    /** A new server in the provisioned install, whose server.xml includes the shipped fragment and nothing of ee-outbox. */
    private DemoServer liberty() throws Exception {
        Path runDir = work.resolve("liberty-run");
        Path serverXml = work.resolve("server.xml");
        Files.writeString(serverXml, """
                <server description="a user's server: the application's own features, ports, and ee-outbox">
                  <featureManager>
                    <feature>restfulWS-3.1</feature>
                    <feature>appSecurity-5.0</feature>
                  </featureManager>
                  <httpEndpoint id="defaultHttpEndpoint" host="127.0.0.1"
                                httpPort="${env.OUTBOX_HTTP_PORT}" httpsPort="${env.OUTBOX_HTTPS_PORT}"/>
                  <variable name="outbox.app.location" value="%s"/>
                  <include location="%s"/>
                </server>
                """.formatted(runDir.resolve(DemoServer.CONTEXT_ROOT + ".war"), setupDir.resolve("liberty/ee-outbox.xml")));
        int from = Integer.getInteger("liberty.http-port", 9380) - 9080 + 300;
        return DemoServer.liberty(Path.of(required("liberty.home")), serverXml, runDir,
                        DemoServer.freeOffset(false, from, 7), "setup-check")
                .applicationDeclaredInServerXml();
    }

    static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set (sample-war's pom sets it)");
        }
        return value;
    }
}
