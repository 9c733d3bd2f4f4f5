package io.eeoutbox.ops.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * At start the relay compares its data source's pool with the connections it can hold at once (issue 17,
 * item 5), reading the pool's maximum from the server's own MBeans: the test servers' relay pool holds 8
 * (WildFly's configure.cli, Liberty's server.xml), the relay up to 7.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class ConnectionsIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return OpsDeployment.war();
    }

    @Test
    void theStartLogNamesThePoolsSizeAndTheRelaysPeak() throws Exception {
        String expected = "relay " + OpsDeployment.RELAY_NAME + ": the pool of java:app/jdbc/OutboxRelay holds at most 8"
                + " connections; the relay holds up to 7 at once";
        String line = Eventually.until(() -> lastLineWith(expected), l -> l != null, "the relay's start line: " + expected);
        RelayAdminJmxIT.report("connections: " + line.trim());
        assertTrue(line.contains(expected), line);
    }

    private static String lastLineWith(String text) throws Exception {
        Path log = ServerUnderTest.current() == ServerUnderTest.WILDFLY
                ? Path.of(System.getProperty("wildfly.home"), "standalone", "log", "server.log")
                : Path.of(System.getProperty("liberty.home"), "usr", "servers", System.getProperty("liberty.server"),
                        "logs", "messages.log");
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).contains(text)) {
                return lines.get(i);
            }
        }
        return null;
    }
}
