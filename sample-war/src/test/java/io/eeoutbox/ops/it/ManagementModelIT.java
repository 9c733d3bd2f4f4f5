package io.eeoutbox.ops.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.sample.fault.harness.WildFlyManagement;
import io.eeoutbox.sample.fault.harness.WildFlyManagement.Response;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
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
 * The relay in WildFly's management model ({@code /subsystem=ee-outbox/relay=ops-it}, the extension of module
 * outbox-wildfly, installed by docs/setup/wildfly-management.cli), through the HTTP management API as an administrator
 * would use it, with the role-based access control that the test server's configure.cli turns on: a Monitor reads, an
 * Operator pauses and resumes, and what the model says is what the relay's MBean says.
 */
@Tag("in-server")
@Tag("wildfly-only")
@ExtendWith(ArquillianExtension.class)
class ManagementModelIT {

    private static final Logger LOG = Logger.getLogger(ManagementModelIT.class.getName());
    private static final String[] RELAY = {"subsystem", "ee-outbox", "relay", OpsDeployment.RELAY_NAME};

    @Deployment(testable = false)
    static WebArchive deployment() {
        return OpsDeployment.war();
    }

    private final WildFlyManagement operator = user("outbox-operator");
    private final WildFlyManagement monitor = user("outbox-monitor");
    private final WildFlyManagement admin = user("outbox-admin");
    private RemoteJmx jmx;
    private MBeanServerConnection server;
    private final ObjectName mbean = OpsDeployment.relayMBean();

    private static WildFlyManagement user(String name) {
        return WildFlyManagement.onLocalPort(Integer.parseInt(System.getProperty("wildfly.management-port")), name,
                name + "-1");
    }

    @BeforeEach
    void connect() throws IOException {
        jmx = RemoteJmx.asAdmin();
        server = jmx.connection();
    }

    @AfterEach
    void resumeAndDisconnect() throws Exception {
        if (server.isRegistered(mbean) && Boolean.TRUE.equals(server.getAttribute(mbean, "Paused"))) {
            server.invoke(mbean, "resume", null, null);
        }
        jmx.close();
    }

    @Test
    void theRelayIsAResourceOfTheSubsystemWithItsRuntimeAttributes() throws Exception {
        JsonObject children = result(monitor.call("read-children-names", Map.of("child-type", "relay"), "subsystem",
                "ee-outbox"));
        assertTrue(children.getJsonArray("result").toString().contains("\"" + OpsDeployment.RELAY_NAME + "\""),
                children.toString());

        // the row counts come from the relay's background refresh (every second in this test): defined after the first
        JsonObject relay = Eventually.until(() -> read(monitor).getJsonObject("result"),
                r -> r.get("gauges-refreshed-at").getValueType() == JsonValue.ValueType.STRING, "the first gauge refresh");
        assertEquals("running", relay.getString("state"), relay.toString());
        assertFalse(relay.getBoolean("paused"), relay.toString());
        assertEquals("ops-test-jms:java:app/jms/OutboxEvents", relay.getString("publisher"));
        assertEquals("relay", relay.getString("mode"), "the relay publishes (not cdc mode): " + relay);
        assertTrue(relay.get("cdc-slot").getValueType() != JsonValue.ValueType.OBJECT
                || relay.getJsonObject("cdc-slot").isEmpty(), "no CDC slot in relay mode: " + relay);
        for (String number : new String[] {"pending", "dead-letters", "oldest-pending-age-seconds", "scheduled", "published-since-start",
                "failed-since-start", "dead-lettered-since-start", "batches-since-start", "last-batch-duration-millis"}) {
            assertTrue(relay.containsKey(number) && relay.get(number).getValueType() == JsonValue.ValueType.NUMBER,
                    number + " in " + relay);
        }
        assertEquals("relay-ops", relay.getString("application"), "java:app/AppName of " + OpsDeployment.NAME);
        assertEquals(OpsDeployment.RELAY_NAME, relay.getJsonObject("settings").getString("outbox.relay.name"));
        assertEquals(((Number) server.getAttribute(mbean, "PublishedSinceStart")).longValue(),
                relay.getJsonNumber("published-since-start").longValue(), "the model reads the MBean");
        LOG.info(() -> "read-resource(include-runtime) of " + String.join("/", RELAY) + ": " + relay);
    }

    @Test
    void anOperatorPausesAndResumesTheRelay() throws Exception {
        ok(operator.call("pause", Map.of(), RELAY));
        assertEquals(Boolean.TRUE, server.getAttribute(mbean, "Paused"), "the MBean says paused after :pause");
        assertEquals("paused", read(operator).getJsonObject("result").getString("state"));

        ok(operator.call("resume", Map.of(), RELAY));
        assertEquals(Boolean.FALSE, server.getAttribute(mbean, "Paused"), "the MBean says running after :resume");
        assertEquals("running", read(monitor).getJsonObject("result").getString("state"));

        Path log = Path.of(System.getProperty("wildfly.home"), "standalone", "log", "server.log");
        String text = Files.readString(log, StandardCharsets.ISO_8859_1);
        assertTrue(text.contains("ee-outbox management: user=outbox-operator action=pause relay=" + OpsDeployment.RELAY_NAME),
                "the audit line of the pause in " + log);
    }

    /**
     * The fleet (schema V13) in the model: the relay sees itself in {@code fleet}; an Operator's {@code :pause-all}
     * pauses every relay of the outbox through the database and answers who acknowledged, the audit names the
     * management user, {@code :resume-all} resumes; a Monitor's {@code :pause-all} is refused and pauses nothing.
     */
    @Test
    void anOperatorPausesAndResumesEveryRelayOfTheOutbox() throws Exception {
        Eventually.until(() -> fleet(monitor), f -> f.stream().anyMatch(r -> r.getString("self").equals("true")),
                "the relay in its own fleet view");
        Response refused = monitor.call("pause-all", Map.of(), RELAY);
        assertFalse(refused.succeeded(), refused.toString());
        assertTrue(refused.body().contains("WFLYCTL0313"), refused.toString());
        assertFalse(read(monitor).getJsonObject("result").getBoolean("fleet-paused"), "nothing paused by the Monitor");
        try {
            String answer = result(ok(operator.call("pause-all", Map.of(), RELAY))).getString("result");
            assertTrue(answer.startsWith("fleet paused") && answer.contains("by wildfly:outbox-operator")
                    && answer.contains("/" + OpsDeployment.RELAY_NAME), answer);
            assertEquals("fleet-paused", server.getAttribute(mbean, "State"), "the MBean's state after :pause-all");
            assertEquals(Boolean.FALSE, server.getAttribute(mbean, "Paused"), "not paused on its own");
            Eventually.until(() -> read(monitor).getJsonObject("result"), r -> r.getBoolean("fleet-paused")
                    && r.getString("fleet-changed-by").equals("wildfly:outbox-operator"), "the fleet paused in the model");
        } finally {
            ok(operator.call("resume-all", Map.of(), RELAY));
        }
        assertEquals("running", server.getAttribute(mbean, "State"), "the MBean's state after :resume-all");
        Path log = Path.of(System.getProperty("wildfly.home"), "standalone", "log", "server.log");
        String text = Files.readString(log, StandardCharsets.ISO_8859_1);
        assertTrue(text.contains("ee-outbox management: user=outbox-operator action=pause-all relay="
                + OpsDeployment.RELAY_NAME), "the audit line of the pause-all in " + log);
        assertTrue(text.contains(OpsDeployment.RELAY_NAME + " paused by the fleet"), "the relay's own line in " + log);
    }

    private List<JsonObject> fleet(WildFlyManagement as) throws IOException {
        JsonValue fleet = read(as).getJsonObject("result").get("fleet");
        return fleet == null || fleet.getValueType() != JsonValue.ValueType.ARRAY ? List.of()
                : fleet.asJsonArray().getValuesAs(JsonObject.class);
    }

    @Test
    void aMonitorIsRefusedAnActionAndNothingChanges() throws Exception {
        for (String action : new String[] {"pause", "run-now"}) {
            Response refused = monitor.call(action, Map.of(), RELAY);
            assertFalse(refused.succeeded(), refused.toString());
            assertTrue(refused.body().contains("WFLYCTL0313"), refused.toString());
        }
        assertEquals(Boolean.FALSE, server.getAttribute(mbean, "Paused"), "still running after the Monitor's :pause");
        assertFalse(read(monitor).getJsonObject("result").getBoolean("paused"));
        Response write = monitor.call("write-attribute", Map.of("name", "paused", "value", "true"), RELAY);
        assertFalse(write.succeeded(), write.toString());
        assertEquals(Boolean.FALSE, server.getAttribute(mbean, "Paused"), "still running after the Monitor's write");
        LOG.info(() -> "a Monitor's write-attribute(paused=true): " + write);
    }

    @Test
    void aCallWithoutCredentialsIsRefusedAndNothingChanges() throws Exception {
        WildFlyManagement nobody = WildFlyManagement.anonymousOnLocalPort(
                Integer.parseInt(System.getProperty("wildfly.management-port")));
        for (String action : new String[] {"pause", "read-resource"}) {
            Response refused = nobody.call(action, Map.of(), RELAY);
            assertEquals(401, refused.status(), refused.toString());
        }
        assertEquals(Boolean.FALSE, server.getAttribute(mbean, "Paused"), "still running after an anonymous :pause");
    }

    @Test
    void pausedIsWritableByMaintainersAndAboveNotByOperators() throws Exception {
        // write-attribute is not a runtime-only operation: it needs WRITE_CONFIG, which an Operator lacks, runtime
        // attribute or not (docs/design/issue-32-server-admin-tools.md, "Step 1 as built"); Maintainer and above may
        Response byOperator = operator.call("write-attribute", Map.of("name", "paused", "value", "true"), RELAY);
        assertFalse(byOperator.succeeded(), byOperator.toString());
        assertTrue(byOperator.body().contains("WFLYCTL0313"), byOperator.toString());
        assertEquals(Boolean.FALSE, server.getAttribute(mbean, "Paused"));

        ok(admin.call("write-attribute", Map.of("name", "paused", "value", "true"), RELAY));
        assertEquals(Boolean.TRUE, server.getAttribute(mbean, "Paused"));
        ok(admin.call("write-attribute", Map.of("name", "paused", "value", "false"), RELAY));
        assertEquals(Boolean.FALSE, server.getAttribute(mbean, "Paused"));
    }

    @Test
    void theRelaysOwnMessageIsTheFailureDescription() throws Exception {
        Response bad = operator.call("retry-dead-letter", Map.of("event-id", "not-a-uuid"), RELAY);
        assertFalse(bad.succeeded(), bad.toString());
        String failure = result(bad).getString("failure-description");
        assertTrue(failure.startsWith("relay " + OpsDeployment.RELAY_NAME + ": event-id ") && failure.contains("UUID"),
                "the relay's message, naming the parameter as the model does: " + failure);

        Response purge = operator.call("purge", Map.of("older-than", "a week"), RELAY);
        assertFalse(purge.succeeded(), purge.toString());
        assertTrue(result(purge).getString("failure-description").contains("older-than must be an ISO-8601 duration"),
                purge.toString());

        Response gone = operator.call("pause", Map.of(), "subsystem", "ee-outbox", "relay", "no-such-relay");
        assertFalse(gone.succeeded(), gone.toString());
    }

    @Test
    void anOperatorRetriesDeadLettersByTheConsolesFilterAndPurges() throws Exception {
        String type = "ops.model-" + UUID.randomUUID();
        UUID matching = OutboxDb.insertDeadLetter(type, "{}", "broker said: quota exceeded");
        UUID other = OutboxDb.insertDeadLetter(type, "{}", "timeout");
        JsonObject retried = result(ok(operator.call("retry-dead-letters", Map.of("event-type", type, "error-text",
                "QUOTA"), RELAY)));
        assertEquals(1, retried.getInt("result"), retried.toString());
        Eventually.until(() -> OutboxDb.processedAt(matching), Optional::isPresent, "the retried dead letter to be published");
        assertTrue(OutboxDb.deadAt(other).isPresent(), "the other error stays a dead letter");

        JsonObject purged = result(ok(operator.call("purge", Map.of("older-than", "P3650D"), RELAY)));
        assertEquals(0, purged.getJsonNumber("result").longValue(), "nothing is ten years old");
    }

    @Test
    void theModelDescribesTheRelayForTheConsole() throws Exception {
        JsonObject description = result(monitor.call("read-resource-description",
                Map.of("recursive", "true", "operations", "true", "include-runtime", "true"), "subsystem", "ee-outbox"))
                .getJsonObject("result");
        JsonObject relay = description.getJsonObject("children").getJsonObject("relay").getJsonObject("model-description")
                .getJsonObject("*");
        assertTrue(relay.getString("description").contains("relay"), relay.getString("description"));
        assertEquals("runtime", relay.getJsonObject("attributes").getJsonObject("pending").getString("storage"));
        assertTrue(relay.getJsonObject("operations").containsKey("pause"), relay.getJsonObject("operations").keySet().toString());
        assertTrue(relay.getJsonObject("operations").getJsonObject("pause").getBoolean("runtime-only"));
        // what HAL's model browser (Tools > Management Model, and the generic subsystem view) asks to list the children
        JsonObject types = result(ok(monitor.call("read-children-types", Map.of("include-singletons", "true"), "subsystem",
                "ee-outbox")));
        assertTrue(types.getJsonArray("result").toString().contains("\"relay\""), types.toString());
        LOG.info(() -> "relay=* as read-resource-description shows it: attributes "
                + relay.getJsonObject("attributes").keySet() + ", operations " + relay.getJsonObject("operations").keySet());
    }

    @Test
    void theReadmesJbossCliLinesWork() throws Exception {
        Path readme = Path.of(System.getProperty("basedir", "."), "..", "README.md");
        List<String> lines = Files.readAllLines(readme).stream().filter(l -> l.startsWith("bin/jboss-cli.sh --connect"))
                .toList();
        assertEquals(3, lines.size(), "the README's jboss-cli lines: " + lines);
        String[] expected = {OpsDeployment.RELAY_NAME, "\"state\" => \"running\"", "\"outcome\" => \"success\""};
        for (int i = 0; i < lines.size(); i++) {
            String output = cli(lines.get(i).replace("relay=orders", "relay=" + OpsDeployment.RELAY_NAME));
            assertTrue(output.contains(expected[i]), lines.get(i) + " printed: " + output);
        }
        assertEquals(Boolean.TRUE, server.getAttribute(mbean, "Paused"), "paused by the README's third line");
    }

    /** Runs one README line ({@code bin/jboss-cli.sh --connect --command="..."}) against this suite's server as the Operator. */
    private static String cli(String line) throws Exception {
        String command = line.substring(line.indexOf("--command=\"") + "--command=\"".length(), line.lastIndexOf('"'));
        Path home = Path.of(System.getProperty("wildfly.home"));
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/jboss-cli.sh").toString(), "--connect",
                "--controller=remote+http://127.0.0.1:" + System.getProperty("wildfly.management-port"),
                "--user=outbox-operator", "--password=outbox-operator-1", "--command=" + command)
                .redirectErrorStream(true);
        builder.environment().put("JBOSS_HOME", home.toString());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "jboss-cli did not end: " + output);
        assertEquals(0, process.exitValue(), command + " printed: " + output);
        return output;
    }

    private JsonObject read(WildFlyManagement as) throws IOException {
        return result(ok(as.call("read-resource", Map.of("include-runtime", "true"), RELAY)));
    }

    private static Response ok(Response response) {
        assertTrue(response.succeeded(), response.toString());
        return response;
    }

    private static JsonObject result(Response response) {
        try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
            return reader.readObject();
        }
    }
}
