package io.eeoutbox.testing;

import org.testcontainers.containers.PostgreSQLContainer;

/** Testcontainers, kept in its own class so that no Docker class loads unless Docker answers. */
final class Containers {

    private Containers() {
    }

    /** A PostgreSQL container, or null (quickly) when no Docker engine answers. */
    static TestDatabase tryStart() {
        if (!Docker.answers("PostgreSQL", "an embedded PostgreSQL")) {
            return null;
        }
        PostgreSQLContainer<?> pg = new PostgreSQLContainer<>("postgres:15-alpine");
        pg.start();
        Runtime.getRuntime().addShutdownHook(new Thread(pg::stop, "testcontainers-postgres-stop"));
        return TestDatabase.of(pg.getJdbcUrl(), pg.getUsername(), pg.getPassword(), "Testcontainers " + pg.getDockerImageName());
    }
}
