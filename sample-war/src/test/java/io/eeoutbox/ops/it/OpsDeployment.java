package io.eeoutbox.ops.it;

import io.eeoutbox.OutboxService;
import io.eeoutbox.jpa.JpaOutboxService;
import io.eeoutbox.ops.it.app.OpsTestPublisher;
import io.eeoutbox.relay.OutboxRelay;
import java.io.File;
import java.net.URISyntaxException;
import javax.management.JMException;
import javax.management.ObjectName;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.importer.ExplodedImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The WAR of the observability tests: ee-outbox's three libraries with the relay on, its resources
 * declared in {@code web.xml} and bound by the servers' binding files, and {@link OpsTestPublisher}.
 * It holds no class of the sample, so the tests do not depend on the sample's application (being
 * rewritten) and the sample's own tests do not see the relay twice.
 */
final class OpsDeployment {

    static final String NAME = "relay-ops.war";
    /** {@code outbox.relay.name} in ops-it/microprofile-config.properties. */
    static final String RELAY_NAME = "ops-it";

    private OpsDeployment() {
    }

    /** The relay's MBean, {@code io.eeoutbox:type=OutboxRelay,name=ops-it}. */
    static ObjectName relayMBean() {
        try {
            return new ObjectName("io.eeoutbox:type=OutboxRelay,name=" + RELAY_NAME);
        } catch (JMException e) {
            throw new IllegalStateException(e);
        }
    }

    static WebArchive war() {
        return war(NAME, "ops-it");
    }

    /** The same WAR named {@code name}, with {@code web.xml} and the relay's settings from {@code resources}/. */
    static WebArchive war(String name, String resources) {
        return withShippedPublisher(name, resources).addClass(OpsTestPublisher.class);
    }

    /**
     * A WAR like {@link #war(String, String)} without {@link OpsTestPublisher}: its relay publishes through the
     * shipped JMS publisher, to the destinations its {@code web.xml} declares.
     */
    static WebArchive withShippedPublisher(String name, String resources) {
        return withLibraries(name)
                .setWebXML(resources + "/web.xml")
                .addAsWebInfResource("ops-it/jboss-web.xml", "jboss-web.xml")
                .addAsWebInfResource("ops-it/jboss-deployment-structure.xml", "jboss-deployment-structure.xml")
                .addAsWebInfResource("ops-it/ibm-web-bnd.xml", "ibm-web-bnd.xml")
                .addAsResource(resources + "/microprofile-config.properties", "META-INF/microprofile-config.properties");
    }

    /**
     * A WAR like {@link #war(String, String)} whose {@code web.xml} is {@code webXml}, which declares the relay's data
     * source itself ({@code <data-source>}): no binding file, no server resource (OutboxPerSchemaInServerIT).
     */
    static WebArchive withWebXml(String name, String resources, String webXml) {
        return withLibraries(name)
                .setWebXML(new StringAsset(webXml))
                .addAsWebInfResource("ops-it/jboss-deployment-structure.xml", "jboss-deployment-structure.xml")
                .addAsResource(resources + "/microprofile-config.properties", "META-INF/microprofile-config.properties")
                .addClass(OpsTestPublisher.class);
    }

    private static WebArchive withLibraries(String name) {
        return ShrinkWrap.create(WebArchive.class, name)
                .addAsLibraries(library(OutboxService.class, "outbox-api.jar"),
                        library(JpaOutboxService.class, "outbox-jpa.jar"),
                        library(OutboxRelay.class, "outbox-ee-relay.jar"));
    }

    /** The module that holds {@code marker}: its jar, or its classes directory in a reactor build. */
    private static JavaArchive library(Class<?> marker, String name) {
        File location;
        try {
            location = new File(marker.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        if (location.isDirectory()) {
            return ShrinkWrap.create(JavaArchive.class, name).as(ExplodedImporter.class).importDirectory(location)
                    .as(JavaArchive.class);
        }
        return ShrinkWrap.createFromZipFile(JavaArchive.class, location);
    }
}
