package io.eeoutbox.sample.it;

import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ExplodedImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** The WAR the in-server tests deploy: the application's packages as they are, plus these tests. */
final class Deployments {

    /** The archive's name: context root /probe on both servers. */
    static final String NAME = "probe.war";

    private Deployments() {
    }

    static WebArchive probe() {
        return ShrinkWrap.create(WebArchive.class, NAME)
                // the application and the test classes beside it; not the test-JVM-only database setup
                .addPackages(true, path -> !path.get().contains("/sample/it/db/"), "io.eeoutbox.sample")
                .addAsResource("META-INF/persistence.xml")
                // WEB-INF/ as the WAR has it: the servers' binding files
                .as(ExplodedImporter.class).importDirectory("src/main/webapp")
                .as(WebArchive.class);
    }
}
