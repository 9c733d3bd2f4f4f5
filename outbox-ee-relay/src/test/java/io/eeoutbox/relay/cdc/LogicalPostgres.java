package io.eeoutbox.relay.cdc;

import io.eeoutbox.testing.TestDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;

/**
 * A PostgreSQL with {@code wal_level=logical} for the CDC tests: the tests' server ({@link TestDatabase#get()})
 * when it has it and its user may replicate, else an embedded PostgreSQL (zonky) of this test's own, started with
 * the settings docs/cdc.md lists. The benchmark's section 8 runs on it too.
 */
public final class LogicalPostgres implements AutoCloseable {

    private final TestDatabase server;
    private final EmbeddedPostgres own;

    private LogicalPostgres(TestDatabase server, EmbeddedPostgres own) {
        this.server = server;
        this.own = own;
    }

    public static LogicalPostgres start(String prefix) {
        TestDatabase shared = TestDatabase.get();
        TestDatabase.Db probe = shared.createEmptyDatabase(prefix + "_probe");
        boolean logical = probe.queryLong("SELECT count(*) FROM pg_settings WHERE name = 'wal_level' AND setting = 'logical'") == 1
                && probe.queryLong("SELECT count(*) FROM pg_roles WHERE rolname = current_user AND (rolsuper OR rolreplication)") == 1;
        if (logical) {
            return new LogicalPostgres(shared, null);
        }
        try {
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setServerConfig("wal_level", "logical")
                    .setServerConfig("max_replication_slots", "4")
                    .setServerConfig("max_wal_senders", "4")
                    .start();
            return new LogicalPostgres(TestDatabase.of(pg.getJdbcUrl("postgres", "postgres"), "postgres", null,
                    "embedded PostgreSQL with wal_level=logical"), pg);
        } catch (IOException e) {
            throw new IllegalStateException("could not start an embedded PostgreSQL with wal_level=logical", e);
        }
    }

    public TestDatabase server() {
        return server;
    }

    @Override
    public void close() throws IOException {
        if (own != null) {
            own.close();
        }
    }
}
