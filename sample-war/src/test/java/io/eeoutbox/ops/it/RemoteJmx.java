package io.eeoutbox.ops.it;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A remote JMX client as an operator runs one: the server's own client jar ({@code bin/client/jboss-client.jar}
 * of WildFly, {@code clients/restConnector.jar} of Liberty) in a class loader of its own (as JConsole's
 * {@code -J-Djava.class.path=...} does), the service URL of {@link ServerUnderTest#jmxServiceUrl()}, and
 * the management user's credentials. Nothing of the client jars is on the test class path, so they
 * cannot clash with Arquillian's own WildFly and Liberty classes.
 */
final class RemoteJmx implements AutoCloseable {

    /** WildFly's remoting-jmx: SASL mechanisms the client must not use. */
    private static final String WILDFLY_EXCLUDED_MECHANISMS = "org.jboss.remoting-jmx.excluded-sasl-mechanisms";
    /** Liberty's rest connector (com.ibm.websphere.jmx.connector.rest.ConnectorSettings). */
    private static final String LIBERTY_PROVIDER_PACKAGES = "com.ibm.ws.jmx.connector.client";
    private static final String LIBERTY_SSL_SOCKET_FACTORY = "com.ibm.ws.jmx.connector.client.CUSTOM_SSLSOCKETFACTORY";
    private static final String LIBERTY_NO_HOSTNAME_CHECK = "com.ibm.ws.jmx.connector.client.disableURLHostnameVerification";

    private final URLClassLoader loader;
    private final JMXConnector connector;

    private RemoteJmx(URLClassLoader loader, JMXConnector connector) {
        this.loader = loader;
        this.connector = connector;
    }

    /** Connects as the management user. */
    static RemoteJmx asAdmin() throws IOException {
        return connect(new String[] {ServerUnderTest.ADMIN_USER, ServerUnderTest.ADMIN_PASSWORD});
    }

    /**
     * Connects with {@code credentials} (null: none at all). On WildFly the client is kept from
     * JBOSS-LOCAL-USER, the silent authentication that a process of the server's own OS user on the
     * same machine gets: a remote caller has no such thing.
     */
    static RemoteJmx connect(String[] credentials) throws IOException {
        ServerUnderTest server = ServerUnderTest.current();
        URLClassLoader loader = new URLClassLoader(new URL[] {server.jmxClientJar().toUri().toURL()},
                ClassLoader.getPlatformClassLoader());
        Map<String, Object> env = new HashMap<>();
        env.put(JMXConnectorFactory.PROTOCOL_PROVIDER_CLASS_LOADER, loader);
        if (credentials != null) {
            env.put(JMXConnector.CREDENTIALS, credentials);
        }
        if (server == ServerUnderTest.WILDFLY) {
            env.put(WILDFLY_EXCLUDED_MECHANISMS, "JBOSS-LOCAL-USER");
        } else {
            env.put(JMXConnectorFactory.PROTOCOL_PROVIDER_PACKAGES, LIBERTY_PROVIDER_PACKAGES);
            env.put(LIBERTY_SSL_SOCKET_FACTORY, trustingLibertysCertificate().getSocketFactory());
            env.put(LIBERTY_NO_HOSTNAME_CHECK, Boolean.TRUE); // the generated certificate is for CN=localhost
        }
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(server.jmxServiceUrl()), env);
            return new RemoteJmx(loader, connector);
        } catch (IOException | RuntimeException e) {
            loader.close();
            throw e;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    MBeanServerConnection connection() throws IOException {
        return connector.getMBeanServerConnection();
    }

    /** An SSL context that trusts the certificate in Liberty's generated keystore, and nothing else. */
    static SSLContext trustingLibertysCertificate() throws IOException {
        try (InputStream in = Files.newInputStream(ServerUnderTest.libertyKeyStore())) {
            char[] password = ServerUnderTest.LIBERTY_KEYSTORE_PASSWORD.toCharArray();
            KeyStore serverKeys = KeyStore.getInstance("PKCS12");
            serverKeys.load(in, password);
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            for (String alias : Collections.list(serverKeys.aliases())) {
                Certificate cert = serverKeys.getCertificate(alias);
                if (cert != null) {
                    trusted.setCertificateEntry(alias, cert);
                }
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trusted);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            return ssl;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read Liberty's keystore " + ServerUnderTest.libertyKeyStore() + ": " + e, e);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            connector.close();
        } finally {
            loader.close();
        }
    }
}
