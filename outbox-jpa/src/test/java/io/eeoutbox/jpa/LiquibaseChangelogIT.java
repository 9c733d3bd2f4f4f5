package io.eeoutbox.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.junit.jupiter.api.Test;

/**
 * The schema through Liquibase (issue 34): outbox-sql's {@code db/liquibase/ee-outbox/changelog.xml}, included from a
 * team's own changelog as docs/schema.md shows, builds the same schema as the migrations applied in order (tables and
 * columns, constraints, indexes, storage settings, functions, triggers, views), with or without the NOTIFY migrations,
 * and a second update changes nothing.
 */
class LiquibaseChangelogIT {

    /** A team's own changelog: it includes ee-outbox's (src/test/resources/liquibase/...). */
    private static final String TEAM_CHANGELOG = "liquibase/team-changelog.xml";

    @Test
    void buildsTheSameSchemaAsTheMigrationsAppliedInOrder() throws Exception {
        TestDatabase.Db migrated = TestDatabase.get().createDatabase("liquibase_reference", true);
        TestDatabase.Db liquibase = TestDatabase.get().createEmptyDatabase("liquibase_all");
        update(liquibase, "");
        List<String> expected = describe(migrated);
        assertThat(expected).anyMatch(l -> l.contains("outbox_events")).anyMatch(l -> l.startsWith("trigger"))
                .anyMatch(l -> l.contains("outbox_complete_and_claim_ordered"));
        assertThat(describe(liquibase)).containsExactlyElementsOf(expected);
        assertThat(changeSets(liquibase)).as("one change set per migration").isEqualTo(TestDatabase.migrations().size());

        update(liquibase, "");
        assertThat(changeSets(liquibase)).as("a second update runs nothing").isEqualTo(TestDatabase.migrations().size());
        assertThat(describe(liquibase)).containsExactlyElementsOf(expected);
    }

    @Test
    void withoutTheNotifyLabelItBuildsTheSchemaWithoutNotify() throws Exception {
        TestDatabase.Db migrated = TestDatabase.get().createDatabase("liquibase_reference_plain", false);
        TestDatabase.Db liquibase = TestDatabase.get().createEmptyDatabase("liquibase_plain");
        update(liquibase, "!notify");
        List<String> expected = describe(migrated);
        assertThat(expected).noneMatch(l -> l.startsWith("trigger")).noneMatch(l -> l.contains("outbox_relay_waiters"));
        assertThat(describe(liquibase)).containsExactlyElementsOf(expected);
    }

    private static void update(TestDatabase.Db db, String labelFilter) throws Exception {
        try (Connection c = db.connect()) {
            Database database = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(c));
            @SuppressWarnings("deprecation") // the CommandScope API needs the same three things; this reads plainer
            Liquibase liquibase = new Liquibase(TEAM_CHANGELOG, new ClassLoaderResourceAccessor(), database);
            liquibase.update(new Contexts(), new LabelExpression(labelFilter));
        }
    }

    private static long changeSets(TestDatabase.Db db) {
        return db.queryLong("SELECT count(*) FROM databasechangelog WHERE author = 'ee-outbox'");
    }

    /** The schema objects of {@code public}, Liquibase's own two tables left out, one sorted line each. */
    private static List<String> describe(TestDatabase.Db db) throws Exception {
        String notLiquibase = " NOT LIKE 'databasechangelog%'";
        List<String> lines = new ArrayList<>();
        lines.addAll(rows(db, "column", "SELECT table_name, column_name, data_type, character_maximum_length, is_nullable,"
                + " column_default, is_identity, identity_generation FROM information_schema.columns"
                + " WHERE table_schema = 'public' AND table_name" + notLiquibase));
        lines.addAll(rows(db, "constraint", "SELECT conrelid::regclass::text AS t, conname, pg_get_constraintdef(oid)"
                + " FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text" + notLiquibase));
        lines.addAll(rows(db, "index", "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename"
                + notLiquibase));
        lines.addAll(rows(db, "storage", "SELECT relname, relkind, reloptions FROM pg_class"
                + " WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'i', 'v', 'S') AND relname" + notLiquibase));
        for (String function : rows(db, "function", "SELECT p.oid::regprocedure::text, pg_get_functiondef(p.oid)"
                + " FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace")) {
            lines.add(searchPathResolved(db, function));
        }
        lines.addAll(rows(db, "trigger", "SELECT pg_get_triggerdef(oid), tgenabled FROM pg_trigger WHERE NOT tgisinternal"));
        lines.addAll(rows(db, "view", "SELECT viewname, definition FROM pg_views WHERE schemaname = 'public'"));
        lines.sort(null);
        return lines;
    }

    /**
     * V8's trigger function keeps the search_path of the session that created it ({@code SET search_path FROM CURRENT}):
     * psql's and Flyway's {@code "$user", public}, Liquibase's {@code public, "$user", public} (it puts its default
     * schema first). What matters is where the function's names resolve: the first schema of that path that exists,
     * which is {@code public} either way. The line keeps that instead of the path.
     */
    private static String searchPathResolved(TestDatabase.Db db, String function) throws Exception {
        Matcher m = SEARCH_PATH.matcher(function);
        if (!m.find()) {
            return function;
        }
        String resolved = null;
        for (String schema : m.group(1).split(",")) {
            String name = schema.trim().replace("'", "").replace("$user", db.user());
            if (db.queryLong("SELECT count(*) FROM pg_namespace WHERE nspname = '" + name.replace("'", "''") + "'") > 0) {
                resolved = name;
                break;
            }
        }
        return m.replaceFirst(" SET search_path: names resolve in " + resolved + "\n");
    }

    private static final Pattern SEARCH_PATH = Pattern.compile(" SET search_path TO ([^\n]*)\n");

    private static List<String> rows(TestDatabase.Db db, String kind, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                StringBuilder line = new StringBuilder(kind);
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    line.append(" | ").append(rs.getString(i));
                }
                out.add(line.toString());
            }
        }
        return out;
    }
}
