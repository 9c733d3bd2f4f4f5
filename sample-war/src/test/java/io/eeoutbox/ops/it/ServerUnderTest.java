package io.eeoutbox.ops.it;

import java.net.URI;
import java.nio.file.Path;

/**
 * Where the server of this failsafe run ({@code outbox.it.server}, set by the Maven profile) shows its
 * metrics, health and JMX, as its operators reach them.
 */
enum ServerUnderTest {

    /** Everything on the management interface (9990 + offset), JMX over HTTP-upgraded remoting. */
    WILDFLY {
        @Override
        URI metrics() {
            return URI.create("http://127.0.0.1:" + managementPort() + "/prometheus");
        }

        @Override
        URI health(String probe) {
            return URI.create("http://127.0.0.1:" + managementPort() + "/health/" + probe);
        }

        @Override
        String jmxServiceUrl() {
            return "service:jmx:remote+http://127.0.0.1:" + managementPort();
        }

        @Override
        Path jmxClientJar() {
            return Path.of(System.getProperty("wildfly.home"), "bin", "client", "jboss-client.jar");
        }

        private String managementPort() {
            return System.getProperty("wildfly.management-port");
        }
    },

    /** Metrics and health on the HTTP port; JMX through restConnector-2.0 on the HTTPS port. */
    LIBERTY {
        @Override
        URI metrics() {
            return URI.create("http://127.0.0.1:" + System.getProperty("liberty.http-port") + "/metrics?scope=application");
        }

        @Override
        URI health(String probe) {
            return URI.create("http://127.0.0.1:" + System.getProperty("liberty.http-port") + "/health/" + probe);
        }

        @Override
        String jmxServiceUrl() {
            return "service:jmx:rest://127.0.0.1:" + System.getProperty("liberty.https-port") + "/IBMJMXConnectorREST";
        }

        @Override
        Path jmxClientJar() {
            return Path.of(System.getProperty("liberty.home"), "clients", "restConnector.jar");
        }
    };

    /** The management user of both test servers (WildFly mgmt-users.properties, Liberty basicRegistry and administrator-role). */
    static final String ADMIN_USER = "outbox-admin";
    static final String ADMIN_PASSWORD = "outbox-admin-1";
    /** server.xml's outbox.keystore.password. */
    static final String LIBERTY_KEYSTORE_PASSWORD = "outbox-keystore-1";

    /** The keystore Liberty generated at its first start (server.xml: defaultKeyStore). */
    static Path libertyKeyStore() {
        return Path.of(System.getProperty("liberty.home"), "usr", "servers", System.getProperty("liberty.server"),
                "resources", "security", "key.p12");
    }

    abstract URI metrics();

    /** {@code ready} or {@code live}. */
    abstract URI health(String probe);

    abstract String jmxServiceUrl();

    abstract Path jmxClientJar();

    static ServerUnderTest current() {
        String name = System.getProperty("outbox.it.server", "");
        return switch (name) {
            case "wildfly" -> WILDFLY;
            case "liberty" -> LIBERTY;
            default -> throw new IllegalStateException("outbox.it.server is '" + name + "', not wildfly or liberty");
        };
    }
}
