package io.eeoutbox.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.jpa.generated.ClaimOutboxBatchOrderedParams;
import io.eeoutbox.jpa.generated.ClaimOutboxBatchParams;
import io.eeoutbox.jpa.generated.ClaimOutboxBatchRow;
import io.eeoutbox.jpa.generated.DeleteOutboxBatchParams;
import io.eeoutbox.jpa.generated.DeleteProcessedOutboxEventsParams;
import io.eeoutbox.jpa.generated.FetchOutboxBatchParams;
import io.eeoutbox.jpa.generated.FindOutboxEventRow;
import io.eeoutbox.jpa.generated.GeneratedQueries.ColumnInfo;
import io.eeoutbox.jpa.generated.GeneratedQueries.ParameterInfo;
import io.eeoutbox.jpa.generated.GeneratedQueries.QueryInfo;
import io.eeoutbox.jpa.generated.GeneratedQueries;
import io.eeoutbox.jpa.generated.GeneratedTestingQueries;
import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.jpa.generated.MarkOutboxBatchProcessedParams;
import io.eeoutbox.jpa.generated.OutboxEvent;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.jpa.generated.OutboxEventQueries;
import io.eeoutbox.jpa.generated.OutboxEventTesting;
import io.eeoutbox.jpa.generated.OutboxEventTestingJdbc;
import io.eeoutbox.jpa.generated.OutboxEventTestingQueries;
import io.eeoutbox.jpa.generated.OutboxStatsRow;
import io.eeoutbox.jpa.generated.ProcessedEvent;
import io.eeoutbox.jpa.generated.ProcessedEventJdbc;
import io.eeoutbox.jpa.generated.ProcessedEventQueries;
import io.eeoutbox.jpa.generated.ProcessedEventTesting;
import io.eeoutbox.jpa.generated.ProcessedEventTestingJdbc;
import io.eeoutbox.jpa.generated.ProcessedEventTestingQueries;
import io.eeoutbox.jpa.generated.RecordOutboxFailuresParams;
import io.eeoutbox.jpa.generated.RecordOutboxFailuresRow;
import io.eeoutbox.jpa.generated.RecordProcessedEventParams;
import io.eeoutbox.jpa.generated.ReleaseOutboxClaimParams;
import io.eeoutbox.jpa.generated.RetryOutboxDeadLettersMatchingParams;
import io.eeoutbox.testing.TestDatabase;
import jakarta.persistence.EntityManager;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The drift check between sql/ and the code generated from it: every generated query (of sql/queries and of
 * sql/test-queries) is prepared
 * on a real PostgreSQL, and what the server says about its parameters and result columns must be
 * what the generator assumed (count, names, types, nullability of plain columns) and what the
 * generated records declare. Then a representative set of queries runs end to end through the
 * generated JDBC DAO, and through the JPA DAO on Hibernate, to prove the binding and reading code.
 */
class GeneratedQueriesIT {

    private static final String PACKAGE = "io.eeoutbox.jpa.generated.";
    private static final Pattern NATIVE_MARKER = Pattern.compile("\\?(\\d+)");
    /** Payload bytes a claim may take (V7): far above these tests' payloads. */
    private static final int MIB = 1 << 20;

    private static TestDatabase.Db db;

    @BeforeAll
    static void createDatabase() {
        db = TestDatabase.get().createDatabase("generated_queries", true);
    }

    @Test
    void testDatabaseAppliesEveryMigrationOfSqlSchemaInOrder() throws IOException {
        Path schema = Path.of(System.getProperty("basedir", "."), "..", "sql", "schema");
        List<String> files;
        try (Stream<Path> list = Files.list(schema)) {
            files = list.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".sql")).toList();
        }
        List<String> byVersion = new ArrayList<>(files);
        byVersion.sort((a, b) -> Integer.compare(version(a), version(b)));
        assertThat(TestDatabase.migrations()).containsExactlyElementsOf(byVersion);
    }

    private static int version(String file) {
        return Integer.parseInt(file.substring(1, file.indexOf("__")));
    }

    @Test
    void theRegistryListsEveryQuery() {
        assertThat(GeneratedQueries.ALL).extracting(QueryInfo::name)
                .contains("InsertOutboxEvent", "CompleteAndClaimOutboxBatch", "RecordProcessedEvent");
        assertThat(GeneratedTestingQueries.ALL).extracting(QueryInfo::name)
                .contains("FetchOutboxBatch", "ClaimOutboxBatch", "DeleteProcessedEventsBefore");
        assertThat(allQueries()).extracting(QueryInfo::name).doesNotHaveDuplicates();
    }

    /** The statements of sql/queries (main code) and of sql/test-queries (this module's test code). */
    private static Stream<QueryInfo> allQueries() {
        return Stream.concat(GeneratedQueries.ALL.stream(), GeneratedTestingQueries.ALL.stream());
    }

    @TestFactory
    Stream<DynamicTest> everyQueryMatchesWhatPostgresqlSaysAboutIt() {
        return allQueries()
                .map(q -> DynamicTest.dynamicTest(q.file() + " " + q.name(), () -> checkAgainstServer(q)));
    }

    private static void checkAgainstServer(QueryInfo q) throws Exception {
        // The parameters: one ? per occurrence in the JDBC form, ?1..?n by first appearance in the native form.
        assertThat(q.jdbcSql()).doesNotContain("?1");
        assertThat(q.jdbcParameters()).hasSize(q.jdbcParameterCount());
        assertThat(q.jdbcParameters()).containsExactlyInAnyOrderElementsOf(
                q.jdbcParameters()).containsAll(q.parameters().stream().map(ParameterInfo::name).toList());
        int highest = 0;
        Matcher m = NATIVE_MARKER.matcher(q.nativeSql());
        while (m.find()) {
            highest = Math.max(highest, Integer.parseInt(m.group(1)));
        }
        assertThat(highest).as("highest ?n of the native SQL").isEqualTo(q.parameters().size());

        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(q.jdbcSql())) {
            ParameterMetaData pmd = ps.getParameterMetaData();
            assertThat(pmd.getParameterCount()).as("parameter count").isEqualTo(q.jdbcParameterCount());
            for (int i = 1; i <= q.jdbcParameterCount(); i++) {
                String name = q.jdbcParameters().get(i - 1);
                ParameterInfo p = q.parameters().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
                assertThat(pmd.getParameterTypeName(i)).as("type of parameter %d (%s)", i, name).isEqualTo(p.pgType());
            }

            ResultSetMetaData rmd = ps.getMetaData();
            int count = rmd == null ? 0 : rmd.getColumnCount();
            assertThat(count).as("result column count").isEqualTo(q.columns().size());
            for (int i = 1; i <= count; i++) {
                ColumnInfo col = q.columns().get(i - 1);
                assertThat(rmd.getColumnLabel(i)).as("name of column %d", i).isEqualTo(col.name());
                assertThat(serialAsInteger(rmd.getColumnTypeName(i))).as("type of column %s", col.name())
                        .isEqualTo(col.pgType());
                int nullable = rmd.isNullable(i);
                if (col.fromSchema() && nullable != ResultSetMetaData.columnNullableUnknown) {
                    assertThat(nullable == ResultSetMetaData.columnNullable).as("nullability of column %s", col.name())
                            .isEqualTo(col.nullable());
                }
            }
        }

        // The records and the DAO methods declare what the registry says.
        if (q.parameters().size() >= 2) {
            assertThat(components(q.paramsRecord())).containsExactlyElementsOf(
                    q.parameters().stream().map(p -> p.javaType() + " " + p.javaName()).toList());
        } else {
            assertThat(q.paramsRecord()).isNull();
        }
        if (q.columns().size() >= 2) {
            assertThat(components(q.rowRecord())).containsExactlyElementsOf(
                    q.columns().stream().map(col -> col.javaType() + " " + col.javaName()).toList());
        } else {
            assertThat(q.rowRecord()).isNull();
        }
        for (String dao : List.of(q.entity() + "Jdbc", q.entity() + "Queries")) {
            Method method = Arrays.stream(Class.forName(PACKAGE + dao).getMethods())
                    .filter(x -> x.getName().equals(q.methodName())).findFirst().orElseThrow();
            assertThat(method.getParameterCount()).isEqualTo(Math.min(q.parameters().size(), 1));
            if (q.parameters().size() == 1) {
                assertThat(method.getGenericParameterTypes()[0].getTypeName())
                        .isEqualTo(q.parameters().get(0).javaType());
            }
            String returns = method.getGenericReturnType().getTypeName();
            switch (q.kind()) {
                case ":exec" -> assertThat(returns).isEqualTo("void");
                case ":execrows" -> assertThat(returns).isEqualTo("int");
                case ":one" -> assertThat(returns).startsWith("java.util.Optional<");
                case ":many" -> assertThat(returns).startsWith("java.util.List<");
                default -> throw new AssertionError(q.kind());
            }
        }
    }

    /** The driver names an identity or serial column by its pseudo-type; its type is the integer. */
    private static String serialAsInteger(String pgType) {
        return switch (pgType) {
            case "bigserial" -> "int8";
            case "serial" -> "int4";
            case "smallserial" -> "int2";
            default -> pgType;
        };
    }

    private static List<String> components(Class<?> record) {
        assertThat(record).isNotNull();
        return Arrays.stream(record.getRecordComponents())
                .map((RecordComponent rc) -> rc.getGenericType().getTypeName() + " " + rc.getName()).toList();
    }

    // ---- end to end, JDBC ----------------------------------------------------------------------

    @Test
    void theJdbcDaoRunsTheOutboxLifecycle() throws SQLException {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        UUID token = UUID.randomUUID();
        try (Connection c = db.connect()) {
            OutboxEventJdbc dao = new OutboxEventJdbc(c);
            OutboxEventTestingJdbc testing = new OutboxEventTestingJdbc(c);
            dao.insertOutboxEvent(new InsertOutboxEventParams(first, "Order", "o-1", "OrderPlaced", "{\"total\": 12}", null));
            dao.insertOutboxEvent(new InsertOutboxEventParams(second, "Order", "o-2", "OrderPlaced", "[1, \"two\"]", null));

            FindOutboxEventRow found = dao.findOutboxEvent(first).orElseThrow();
            assertThat(found.id()).isEqualTo(first);
            assertThat(found.aggregateType()).isEqualTo("Order");
            assertThat(found.payload()).isEqualTo("{\"total\": 12}");
            assertThat(found.attempts()).isZero();
            assertThat(found.createdAt()).isNotNull();
            assertThat(found.processedAt()).isNull();
            assertThat(found.deadAt()).isNull();
            assertThat(dao.findOutboxEvent(UUID.randomUUID())).isEmpty();
            assertThat(testing.outboxPendingCount()).contains(2L);

            List<ClaimOutboxBatchRow> claimed = testing.claimOutboxBatch(
                    new ClaimOutboxBatchParams(token, now.plusSeconds(30), 3, now, 10, MIB));
            assertThat(claimed).extracting(ClaimOutboxBatchRow::id).containsExactlyInAnyOrder(first, second);
            ClaimOutboxBatchRow row = claimed.stream().filter(r -> r.id().equals(first)).findFirst().orElseThrow();
            assertThat(row.payload()).isEqualTo(found.payload());
            assertThat(row.createdAt()).isEqualTo(found.createdAt());
            assertThat(row.seq()).isEqualTo(found.seq());
            assertThat(claimed).filteredOn(r -> r.id().equals(second)).singleElement()
                    .satisfies(r -> assertThat(r.payload()).isEqualTo("[1, \"two\"]"));
            assertThat(testing.claimOutboxBatch(new ClaimOutboxBatchParams(UUID.randomUUID(), now.plusSeconds(30), 3, now,
                    10, MIB))).as("leased rows are not claimed twice").isEmpty();

            assertThat(testing.markOutboxBatchProcessed(new MarkOutboxBatchProcessedParams(now, List.of(first), token)))
                    .contains(1);
            assertThat(dao.findOutboxEvent(first).orElseThrow().processedAt()).isEqualTo(now);

            // A failure with the last allowed attempt: a dead letter, its error text kept as given.
            String error = "broker said \"no\" \\ {twice}, NULL";
            List<RecordOutboxFailuresRow> failed = testing.recordOutboxFailures(new RecordOutboxFailuresParams(1, now,
                    List.of(second), List.of(now.plusSeconds(60)), List.of(error), token));
            assertThat(failed).containsExactly(new RecordOutboxFailuresRow(second, 1, now));
            assertThat(testing.listOutboxDeadLetters(10)).singleElement().satisfies(d -> {
                assertThat(d.id()).isEqualTo(second);
                assertThat(d.lastError()).isEqualTo(error);
            });
            OutboxStatsRow stats = dao.outboxStats().orElseThrow();
            assertThat(stats.pending()).isZero();
            assertThat(stats.dead()).isEqualTo(1);
            assertThat(stats.oldestPendingSince()).isNull();

            // NULL filters match every dead letter.
            assertThat(dao.retryOutboxDeadLettersMatching(new RetryOutboxDeadLettersMatchingParams("OrderPlaced", null,
                    null, null, now.minusSeconds(3600), null))).isZero();
            assertThat(dao.retryOutboxDeadLettersMatching(new RetryOutboxDeadLettersMatchingParams(null, null, null, null,
                    null, null))).isEqualTo(1);
            assertThat(dao.retryOutboxDeadLetter(second)).isZero();
            assertThat(dao.outboxStats().orElseThrow().oldestPendingSince())
                    .isEqualTo(dao.findOutboxEvent(second).orElseThrow().createdAt());

            Instant later = now.plusSeconds(120);
            UUID other = UUID.randomUUID();
            assertThat(testing.claimOutboxBatchOrdered(new ClaimOutboxBatchOrderedParams(other, later.plusSeconds(30), 3,
                    later, 10, MIB))).extracting(ClaimOutboxBatchRow::id).containsExactly(second);
            assertThat(dao.releaseOutboxClaim(new ReleaseOutboxClaimParams(List.of(second), other))).isEqualTo(1);
            assertThat(testing.claimOutboxBatch(new ClaimOutboxBatchParams(token, later.plusSeconds(30), 3, later, 10, MIB)))
                    .hasSize(1);
            assertThat(testing.deleteOutboxBatch(new DeleteOutboxBatchParams(List.of(second), token))).contains(1);

            // The baseline statements, in a transaction as they require.
            UUID third = UUID.randomUUID();
            dao.insertOutboxEvent(new InsertOutboxEventParams(third, "Cart", "c-1", "CartOpened", "{}", null));
            c.setAutoCommit(false);
            assertThat(testing.fetchOutboxBatch(new FetchOutboxBatchParams(3, 10))).singleElement()
                    .satisfies(r -> assertThat(r.id()).isEqualTo(third));
            testing.incrementOutboxAttempts(third);
            testing.markOutboxProcessed(third);
            assertThat(dao.tryOutboxMaintenanceLock(7_000_001L)).contains(true);
            c.commit();
            c.setAutoCommit(true);
            assertThat(dao.findOutboxEvent(third).orElseThrow().attempts()).isEqualTo(1);

            assertThat(testing.deleteProcessedOutboxEvents(new DeleteProcessedOutboxEventsParams(later.plusSeconds(3600),
                    100))).contains(2);
            assertThat(testing.outboxPendingCount()).contains(0L);

            ProcessedEventJdbc inbox = new ProcessedEventJdbc(c);
            ProcessedEventTestingJdbc inboxTesting = new ProcessedEventTestingJdbc(c);
            assertThat(inbox.recordProcessedEvent(new RecordProcessedEventParams("billing", first))).isEqualTo(1);
            assertThat(inbox.recordProcessedEvent(new RecordProcessedEventParams("billing", first))).isZero();
            assertThat(inbox.recordProcessedEvent(new RecordProcessedEventParams("shipping", first))).isEqualTo(1);
            assertThat(inboxTesting.deleteProcessedEventsBefore(Instant.now().plusSeconds(60))).isEqualTo(2);
        }
    }

    // ---- end to end, JPA on Hibernate ----------------------------------------------------------

    @Test
    void theJpaDaoWorksOnHibernate() {
        TestDatabase.Db jpaDb = TestDatabase.get().createDatabase("generated_queries_jpa", false);
        Properties settings = new Properties();
        settings.put("hibernate.connection.url", jpaDb.url());
        if (jpaDb.user() != null) {
            settings.put("hibernate.connection.username", jpaDb.user());
        }
        if (jpaDb.password() != null) {
            settings.put("hibernate.connection.password", jpaDb.password());
        }
        settings.put("hibernate.connection.pool_size", "2");
        settings.put("hibernate.hbm2ddl.auto", "none");
        settings.put("hibernate.transaction.jta.platform",
                "org.hibernate.engine.transaction.jta.platform.internal.NoJtaPlatform");
        Configuration configuration = new Configuration().addProperties(settings)
                .addAnnotatedClass(OutboxEvent.class).addAnnotatedClass(ProcessedEvent.class)
                .addAnnotatedClass(OutboxEventTesting.class).addAnnotatedClass(ProcessedEventTesting.class);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        UUID id = UUID.randomUUID();
        UUID token = UUID.randomUUID();
        try (SessionFactory sessions = configuration.buildSessionFactory();
             EntityManager em = sessions.createEntityManager()) {
            OutboxEventQueries dao = new OutboxEventQueries(em);
            OutboxEventTestingQueries testing = new OutboxEventTestingQueries(em);
            em.getTransaction().begin();
            dao.insertOutboxEvent(new InsertOutboxEventParams(id, "Order", "o-9", "OrderPlaced", "{\"a\": [1, 2]}", null));
            em.getTransaction().commit();

            em.getTransaction().begin();
            FindOutboxEventRow found = dao.findOutboxEvent(id).orElseThrow();
            assertThat(found.payload()).isEqualTo("{\"a\": [1, 2]}");
            assertThat(found.seq()).isPositive();
            assertThat(found.retryAfter()).isNull();
            assertThat(dao.findOutboxEvent(UUID.randomUUID())).isEmpty();
            assertThat(testing.outboxPendingCount()).contains(1L);
            List<ClaimOutboxBatchRow> claimed = testing.claimOutboxBatch(
                    new ClaimOutboxBatchParams(token, now.plusSeconds(30), 3, now, 10, MIB));
            assertThat(claimed).singleElement().satisfies(r -> {
                assertThat(r.id()).isEqualTo(id);
                assertThat(r.createdAt()).isEqualTo(found.createdAt());
                assertThat(r.payload()).isEqualTo(found.payload());
            });
            List<RecordOutboxFailuresRow> failed = testing.recordOutboxFailures(new RecordOutboxFailuresParams(3, now,
                    List.of(id), List.of(now.plusSeconds(5)), List.of("a \"quoted\" \\ error"), token));
            assertThat(failed).containsExactly(new RecordOutboxFailuresRow(id, 1, null));
            assertThat(dao.findOutboxEvent(id).orElseThrow().lastError()).isEqualTo("a \"quoted\" \\ error");
            assertThat(dao.retryOutboxDeadLettersMatching(new RetryOutboxDeadLettersMatchingParams(null, "Order", null, null,
                    null, null))).isZero();
            assertThat(testing.claimOutboxBatch(new ClaimOutboxBatchParams(token, now.plusSeconds(60), 3,
                    now.plusSeconds(10), 10, MIB))).hasSize(1);
            Optional<Integer> marked = testing.markOutboxBatchProcessed(new MarkOutboxBatchProcessedParams(
                    now.plusSeconds(10), List.of(id), token));
            assertThat(marked).contains(1);
            OutboxStatsRow stats = dao.outboxStats().orElseThrow();
            assertThat(stats.pending()).isZero();
            assertThat(stats.oldestPendingSince()).isNull();
            assertThat(dao.tryOutboxMaintenanceLock(7_000_002L)).contains(true);
            assertThat(testing.deleteProcessedOutboxEvents(new DeleteProcessedOutboxEventsParams(now.plusSeconds(3600),
                    10))).contains(1);
            ProcessedEventQueries inbox = new ProcessedEventQueries(em);
            ProcessedEventTestingQueries inboxTesting = new ProcessedEventTestingQueries(em);
            assertThat(inbox.recordProcessedEvent(new RecordProcessedEventParams("billing", id))).isEqualTo(1);
            assertThat(inbox.recordProcessedEvent(new RecordProcessedEventParams("billing", id))).isZero();
            assertThat(inboxTesting.deleteProcessedEventsBefore(Instant.now().plusSeconds(60))).isEqualTo(1);
            em.getTransaction().commit();
        }
    }
}
