package io.eeoutbox.sample.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The WARs the in-server tests deploy: the sample WAR exactly as the build packaged it (the
 * application, ee-outbox's jars in WEB-INF/lib, the servers' binding files), plus, for in-server
 * tests, the classes of this package. The context root is the archive's name without ".war".
 */
public final class Deployments {

    /** Context root /orders on both servers. */
    public static final String NAME = "orders.war";

    private Deployments() {
    }

    /** The packaged WAR, as a client sees it (black-box tests). */
    public static WebArchive orders(String name) {
        return ShrinkWrap.create(ZipImporter.class, name).importFrom(packagedWar()).as(WebArchive.class);
    }

    /** The packaged WAR with this package's classes (tests and test beans) beside the application. */
    static WebArchive ordersWithTests() {
        return orders(NAME).addPackage(Deployments.class.getPackage());
    }

    /** target/&lt;finalName&gt;.war, built by the package phase before failsafe runs. */
    static File packagedWar() {
        Path target = Path.of(System.getProperty("basedir", "."), "target");
        try (Stream<Path> files = Files.list(target)) {
            List<Path> wars = files.filter(p -> p.getFileName().toString().endsWith(".war")).toList();
            if (wars.size() != 1) {
                throw new IllegalStateException("expected one packaged WAR in " + target + " (run mvn verify), found " + wars);
            }
            return wars.get(0).toFile();
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + target, e);
        }
    }
}
