package io.eeoutbox.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generator on the project's real sql/ folder: the files it makes for the main code (queries/) and for tests
 * (test-queries/), and that they compile cleanly together.
 */
class GeneratorTest {

    private static final String PKG = "io.eeoutbox.jpa.generated";
    private static final String DIR = "io/eeoutbox/jpa/generated/";

    @TempDir
    static Path work;
    private static Map<String, String> files;
    private static Map<String, String> testFiles;
    private static ClassLoader loader;

    @BeforeAll
    static void generateAndCompile() throws Exception {
        files = new Generator(PKG).generate(TestFiles.sqlDirectory());
        testFiles = Generator.forTests(PKG).generate(TestFiles.sqlDirectory());
        Map<String, String> both = new TreeMap<>(files);
        both.putAll(testFiles);
        assertThat(both).hasSize(files.size() + testFiles.size());
        Path src = work.resolve("src");
        Path classes = work.resolve("classes");
        Files.createDirectories(classes);
        Generator.write(both, src);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        String persistenceApi = Path.of(jakarta.persistence.Entity.class.getProtectionDomain().getCodeSource()
                .getLocation().toURI()).toString();
        try (StandardJavaFileManager fm = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            List<File> sources = both.keySet().stream().map(p -> src.resolve(p).toFile()).toList();
            boolean ok = javac.getTask(null, fm, diagnostics,
                    List.of("--release", "17", "-Xlint:all", "-Werror", "-proc:none", "-encoding", "UTF-8",
                            "-classpath", persistenceApi, "-d", classes.toString()),
                    null, fm.getJavaFileObjectsFromFiles(sources)).call();
            List<String> messages = new ArrayList<>();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                messages.add(d.getKind() + " " + d.getSource() + ":" + d.getLineNumber() + " " + d.getMessage(null));
            }
            assertThat(messages).as("javac diagnostics on the generated code").isEmpty();
            assertThat(ok).isTrue();
        }
        loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, GeneratorTest.class.getClassLoader());
    }

    private static Class<?> type(String simpleName) throws ClassNotFoundException {
        return Class.forName(PKG + "." + simpleName, true, loader);
    }

    /** "name(ParamType) -> ReturnType" with generic types and the package left out. */
    private static String signature(String type, String method) throws Exception {
        for (Method m : type(type).getDeclaredMethods()) {
            if (m.getName().equals(method)) {
                String params = Arrays.stream(m.getGenericParameterTypes()).map(t -> t.getTypeName())
                        .collect(Collectors.joining(", "));
                String s = m.getGenericReturnType().getTypeName() + " " + method + "(" + params + ")";
                return s.replace(PKG + ".", "").replace("java.util.", "").replace("java.time.", "")
                        .replace("java.lang.", "");
            }
        }
        throw new AssertionError("no method " + type + "." + method);
    }

    private static String components(String record) throws Exception {
        Class<?> type = type(record);
        assertThat(type.isRecord()).as(record + " is a record").isTrue();
        List<String> parts = new ArrayList<>();
        for (RecordComponent c : type.getRecordComponents()) {
            parts.add(c.getGenericType().getTypeName().replace("java.util.", "").replace("java.time.", "")
                    .replace("java.lang.", "") + " " + c.getName());
        }
        return record + "(" + String.join(", ", parts) + ")";
    }

    @Test
    void generatesTheExpectedFiles() {
        assertThat(files.keySet()).contains(DIR + "OutboxEvent.java", DIR + "OutboxEventSql.java",
                DIR + "OutboxEventQueries.java", DIR + "OutboxEventJdbc.java", DIR + "ProcessedEvent.java",
                DIR + "ProcessedEventSql.java", DIR + "ProcessedEventQueries.java", DIR + "ProcessedEventJdbc.java",
                DIR + "CompleteAndClaimOutboxBatchParams.java", DIR + "CompleteAndClaimOutboxBatchRow.java",
                DIR + "SqlValues.java", DIR + "GeneratedQueries.java");
        assertThat(files.keySet()).doesNotContain(DIR + "ClaimOutboxBatchParams.java",
                DIR + "FindOutboxEventParams.java", DIR + "GeneratedTestingQueries.java");
        assertThat(files).allSatisfy((path, text) -> assertThat(text).startsWith("// Generated by ee-outbox codegen"
                + " from sql/queries").contains(" \u2014 do not edit.\n"));
        assertThat(files.get(DIR + "OutboxEventJdbc.java"))
                .startsWith("// Generated by ee-outbox codegen from sql/queries/outbox_events.sql \u2014 do not edit.\n");
    }

    @Test
    void testQueriesGetTheirOwnTypesBesideTheMainCode() {
        assertThat(testFiles.keySet()).contains(DIR + "OutboxEventTesting.java", DIR + "OutboxEventTestingSql.java",
                DIR + "OutboxEventTestingQueries.java", DIR + "OutboxEventTestingJdbc.java",
                DIR + "ProcessedEventTestingJdbc.java", DIR + "ClaimOutboxBatchParams.java",
                DIR + "ClaimOutboxBatchRow.java", DIR + "GeneratedTestingQueries.java");
        assertThat(testFiles.keySet()).as("the main code's conversions and registry serve").doesNotContain(
                DIR + "SqlValues.java", DIR + "GeneratedQueries.java", DIR + "ClaimOutboxBatchOrderedRow.java");
        assertThat(testFiles).allSatisfy((path, text) -> assertThat(text).startsWith("// Generated by ee-outbox"
                + " codegen from sql/test-queries"));
        assertThat(testFiles.get(DIR + "GeneratedTestingQueries.java"))
                .contains("import io.eeoutbox.jpa.generated.GeneratedQueries.QueryInfo;")
                .contains("public final class GeneratedTestingQueries {")
                .doesNotContain("public record");
        assertThat(new Generator(PKG).generate(TestFiles.sqlDirectory()))
                .as("main generation reads no test-queries").isEqualTo(files);
    }

    @Test
    void aQueryNameIsDefinedInOneFolderOnly() {
        String schema = QueryParserTest.SCHEMA;
        assertThatThrownBy(() -> Generator.forTests(PKG).generateForTests("sql", Map.of("V1__t.sql", schema),
                Map.of("things.sql", "-- name: FindThing :many\nSELECT id FROM things;\n"),
                Map.of("things.sql", "\n-- name: FindThing :many\nSELECT name FROM things;\n")))
                .hasMessage("sql/test-queries/things.sql:2: duplicate query name FindThing (first defined at"
                        + " sql/queries/things.sql:1)");
    }

    @Test
    void isDeterministic() {
        assertThat(new Generator(PKG).generate(TestFiles.sqlDirectory())).isEqualTo(files);
        assertThat(Generator.forTests(PKG).generate(TestFiles.sqlDirectory())).isEqualTo(testFiles);
    }

    @Test
    void daoSignaturesFollowTheQueries() throws Exception {
        for (String dao : List.of("OutboxEventJdbc", "OutboxEventQueries")) {
            assertThat(signature(dao, "completeAndClaimOutboxBatch")).isEqualTo("List<CompleteAndClaimOutboxBatchRow>"
                    + " completeAndClaimOutboxBatch(CompleteAndClaimOutboxBatchParams)");
            assertThat(signature(dao, "recordOutboxFailuresDelayed")).isEqualTo("List<RecordOutboxFailuresDelayedRow>"
                    + " recordOutboxFailuresDelayed(RecordOutboxFailuresDelayedParams)");
            assertThat(signature(dao, "releaseOutboxClaim")).isEqualTo("int releaseOutboxClaim(ReleaseOutboxClaimParams)");
            assertThat(signature(dao, "outboxStats")).isEqualTo("Optional<OutboxStatsRow> outboxStats()");
            assertThat(signature(dao, "findOutboxEvent")).isEqualTo("Optional<FindOutboxEventRow> findOutboxEvent(UUID)");
            assertThat(signature(dao, "retryOutboxDeadLetter")).isEqualTo("int retryOutboxDeadLetter(UUID)");
            assertThat(signature(dao, "retryOutboxDeadLettersMatching"))
                    .isEqualTo("int retryOutboxDeadLettersMatching(RetryOutboxDeadLettersMatchingParams)");
            assertThat(signature(dao, "tryOutboxMaintenanceLock"))
                    .isEqualTo("Optional<Boolean> tryOutboxMaintenanceLock(long)");
            assertThat(signature(dao, "insertOutboxEvent")).isEqualTo("void insertOutboxEvent(InsertOutboxEventParams)");
        }
        for (String dao : List.of("OutboxEventTestingJdbc", "OutboxEventTestingQueries")) {
            assertThat(signature(dao, "claimOutboxBatch"))
                    .isEqualTo("List<ClaimOutboxBatchRow> claimOutboxBatch(ClaimOutboxBatchParams)");
            assertThat(signature(dao, "claimOutboxBatchOrdered"))
                    .isEqualTo("List<ClaimOutboxBatchRow> claimOutboxBatchOrdered(ClaimOutboxBatchOrderedParams)");
            assertThat(signature(dao, "recordOutboxFailures"))
                    .isEqualTo("List<RecordOutboxFailuresRow> recordOutboxFailures(RecordOutboxFailuresParams)");
            assertThat(signature(dao, "outboxPendingCount")).isEqualTo("Optional<Long> outboxPendingCount()");
            assertThat(signature(dao, "listOutboxDeadLetters"))
                    .isEqualTo("List<ListOutboxDeadLettersRow> listOutboxDeadLetters(int)");
            assertThat(signature(dao, "fetchOutboxBatch"))
                    .isEqualTo("List<FetchOutboxBatchRow> fetchOutboxBatch(FetchOutboxBatchParams)");
            assertThat(signature(dao, "markOutboxProcessed")).isEqualTo("void markOutboxProcessed(UUID)");
            assertThat(signature(dao, "incrementOutboxAttempts")).isEqualTo("void incrementOutboxAttempts(UUID)");
        }
        for (String dao : List.of("ProcessedEventJdbc", "ProcessedEventQueries")) {
            assertThat(signature(dao, "recordProcessedEvent"))
                    .isEqualTo("int recordProcessedEvent(RecordProcessedEventParams)");
        }
        for (String dao : List.of("ProcessedEventTestingJdbc", "ProcessedEventTestingQueries")) {
            assertThat(signature(dao, "deleteProcessedEventsBefore"))
                    .isEqualTo("int deleteProcessedEventsBefore(Instant)");
        }
        assertThat(type("OutboxEventJdbc").getMethod("findOutboxEvent", UUID.class).getExceptionTypes())
                .containsExactly(java.sql.SQLException.class);
        assertThat(type("OutboxEventQueries").getMethod("findOutboxEvent", UUID.class).getExceptionTypes()).isEmpty();
    }

    @Test
    void recordsFollowTheQueries() throws Exception {
        assertThat(components("ClaimOutboxBatchParams")).isEqualTo("ClaimOutboxBatchParams(UUID claimToken,"
                + " Instant lockedUntil, int maxAttempts, Instant now, int batchSize, int maxBytes)");
        assertThat(components("ClaimOutboxBatchRow")).isEqualTo("ClaimOutboxBatchRow(UUID id, long seq,"
                + " String aggregateType, String aggregateId, String eventType, String payload, int attempts,"
                + " Instant createdAt, String tracingspancontext)");
        assertThat(components("MarkOutboxBatchProcessedParams"))
                .isEqualTo("MarkOutboxBatchProcessedParams(Instant now, List<UUID> ids, UUID claimToken)");
        assertThat(components("DeleteOutboxBatchParams"))
                .isEqualTo("DeleteOutboxBatchParams(List<UUID> ids, UUID claimToken)");
        assertThat(components("RecordOutboxFailuresParams")).isEqualTo("RecordOutboxFailuresParams(int maxAttempts,"
                + " Instant now, List<UUID> ids, List<Instant> retryAfters, List<String> errors, UUID claimToken)");
        assertThat(components("RecordOutboxFailuresRow"))
                .isEqualTo("RecordOutboxFailuresRow(UUID id, int attempts, Instant deadAt)");
        assertThat(components("RecordOutboxFailuresDelayedRow"))
                .isEqualTo("RecordOutboxFailuresDelayedRow(UUID id, int attempts, Instant deadAt)");
        assertThat(components("ReleaseOutboxClaimParams"))
                .isEqualTo("ReleaseOutboxClaimParams(List<UUID> ids, UUID claimToken)");
        assertThat(components("OutboxStatsRow"))
                .isEqualTo("OutboxStatsRow(long pending, long dead, Instant oldestPendingSince)");
        assertThat(components("RetryOutboxDeadLettersMatchingParams")).isEqualTo("RetryOutboxDeadLettersMatchingParams("
                + "String eventType, String aggregateType, String aggregateId, Instant createdFrom, Instant createdTo,"
                + " String errorText)");
        assertThat(components("DeleteProcessedOutboxEventsParams"))
                .isEqualTo("DeleteProcessedOutboxEventsParams(Instant processedBefore, int batchSize)");
        assertThat(components("InsertOutboxEventParams")).isEqualTo("InsertOutboxEventParams(UUID id,"
                + " String aggregateType, String aggregateId, String eventType, String payload,"
                + " String tracingspancontext)");
        assertThat(components("FetchOutboxBatchParams")).isEqualTo("FetchOutboxBatchParams(int maxAttempts, int batchSize)");
        assertThat(components("RecordProcessedEventParams"))
                .isEqualTo("RecordProcessedEventParams(String consumer, UUID eventId)");
    }

    @Test
    void paramsRecordsRejectNullForNonNullParameters() throws Exception {
        Class<?> params = type("DeleteOutboxBatchParams");
        assertThatThrownBy(() -> params.getConstructors()[0].newInstance(List.of(), null))
                .hasRootCauseInstanceOf(NullPointerException.class).rootCause().hasMessage("claimToken");
        Class<?> nullable = type("RetryOutboxDeadLettersMatchingParams");
        assertThat(nullable.getConstructors()[0].newInstance(null, null, null, null, null, null)).isNotNull();
    }

    @Test
    void nativeSqlUsesNumberedCastsAndNoComments() {
        String sql = files.get(DIR + "OutboxEventSql.java");
        // a parameter's cast becomes CAST(? AS type); a result column's stays (m.instance::uuid AS instance)
        assertThat(sql).contains("CAST(?1 AS uuid)").doesNotContain("--").doesNotContain("@claim_token")
                .doesNotContain("claim_token::uuid").doesNotContain("?::");
        assertThat(testFiles.get(DIR + "OutboxEventTestingSql.java")).contains("CAST(?1 AS uuid)").doesNotContain("--");
        assertThat(testFiles.get(DIR + "OutboxEventTesting.java")).contains("public static final String"
                + " Q_CLAIM_OUTBOX_BATCH = \"OutboxEventTesting.ClaimOutboxBatch\";");
        assertThat(files.get(DIR + "OutboxEvent.java"))
                .contains("public static final String Q_INSERT_OUTBOX_EVENT = \"OutboxEvent.InsertOutboxEvent\";")
                .contains("@Id\n    @Column(name = \"id\", insertable = false, updatable = false)\n    private UUID id;")
                .contains("columnDefinition = \"jsonb\")\n    private String payload;")
                .contains("private OffsetDateTime createdAt;");
        assertThat(files.get(DIR + "ProcessedEvent.java")).contains("@IdClass(ProcessedEvent.PrimaryKey.class)");
    }

    @Test
    void sqlValuesConvertWhatProvidersReturn() throws Exception {
        Class<?> v = type("SqlValues");
        Method array = v.getMethod("arrayParameter", List.class);
        assertThat(array.invoke(null, Arrays.asList("a", "q\"uote", "back\\slash", null)))
                .isEqualTo("{\"a\",\"q\\\"uote\",\"back\\\\slash\",NULL}");
        assertThat(array.invoke(null, List.of())).isEqualTo("{}");
        Method instant = v.getMethod("toInstant", Object.class);
        Instant at = Instant.parse("2024-05-01T10:34:56.123456Z");
        for (Object form : List.of(at, java.sql.Timestamp.from(at), at.atOffset(java.time.ZoneOffset.ofHours(2)),
                "2024-05-01 12:34:56.123456+02", "2024-05-01T10:34:56.123456Z",
                java.time.LocalDateTime.ofInstant(at, java.time.ZoneId.systemDefault()))) {
            assertThat(instant.invoke(null, form)).as(form.getClass().getName()).isEqualTo(at);
        }
        UUID id = UUID.randomUUID();
        Method uuid = v.getMethod("toUuid", Object.class);
        assertThat(uuid.invoke(null, id.toString())).isEqualTo(id);
        assertThat(uuid.invoke(null, new Object() {
            @Override
            public String toString() {
                return id.toString(); // like PGobject
            }
        })).isEqualTo(id);
        assertThat(v.getMethod("toLong", Object.class, String.class).invoke(null, java.math.BigInteger.TEN, "c"))
                .isEqualTo(10L);
        assertThat(v.getMethod("toIntOrNull", Object.class).invoke(null, (Object) null)).isNull();
        assertThatThrownBy(() -> v.getMethod("toInt", Object.class, String.class).invoke(null, null, "attempts"))
                .rootCause().hasMessage("column attempts is NULL but declared NOT NULL");
    }

    @Test
    void duplicateQueryNamesAcrossFilesAreErrors() {
        Map<String, String> queries = new LinkedHashMap<>();
        queries.put("things.sql", "-- name: FindThing :many\nSELECT id FROM things;\n");
        queries.put("others.sql", "\n\n-- name: FindThing :many\nSELECT other_id FROM others;\n");
        assertThatThrownBy(() -> new Generator(PKG).generate("sql", Map.of("V1__t.sql", QueryParserTest.SCHEMA),
                queries)).hasMessage("sql/queries/things.sql:1: duplicate query name FindThing (first defined at"
                        + " sql/queries/others.sql:3)");
    }

    @Test
    void anUnknownColumnTypeOfAnEntityIsAnErrorAtTheSchemaLine() {
        assertThatThrownBy(() -> new Generator(PKG).generate("sql",
                Map.of("V1__t.sql", "CREATE TABLE boxes (\n  id uuid PRIMARY KEY,\n  size numeric NOT NULL\n);"),
                Map.of("boxes.sql", "-- name: ListBoxes :many\nSELECT id FROM boxes;\n")))
                .hasMessageStartingWith("sql/schema/V1__t.sql:3: unknown type numeric of column boxes.size");
    }

    @Test
    void aQueriesFileNeedsItsTable() {
        assertThatThrownBy(() -> new Generator(PKG).generate("sql", Map.of("V1__t.sql", QueryParserTest.SCHEMA),
                Map.of("nothing.sql", "-- name: Q :exec\nDELETE FROM things;\n")))
                .hasMessage("sql/queries/nothing.sql:1: no CREATE TABLE nothing in the schema: a queries file is"
                        + " named after the table it queries");
    }

    @Test
    void identicalResultListsShareARowRecord() {
        Map<String, String> out = new Generator(PKG).generate("sql", Map.of("V1__t.sql", QueryParserTest.SCHEMA),
                Map.of("things.sql", """
                        -- name: NewThings :many
                        SELECT id, name FROM things ORDER BY seq DESC;
                        -- name: OldThings :many
                        SELECT id, name FROM things ORDER BY seq;
                        -- name: NamedThings :many
                        SELECT id, note AS name FROM things;
                        """));
        assertThat(out).containsKeys(DIR + "NewThingsRow.java", DIR + "NamedThingsRow.java")
                .doesNotContainKey(DIR + "OldThingsRow.java");
        assertThat(out.get(DIR + "ThingJdbc.java")).contains("public List<NewThingsRow> oldThings()");
    }

    @Test
    void staleGeneratedFilesAreDeletedAndUnchangedOnesLeftAlone(@TempDir Path out) throws Exception {
        Path mine = out.resolve("keep/Mine.java");
        Files.createDirectories(mine.getParent());
        Files.writeString(mine, "class Mine {}");
        Path stale = out.resolve(DIR + "GoneRow.java");
        Files.createDirectories(stale.getParent());
        Files.writeString(stale, "// Generated by ee-outbox codegen from sql/queries/x.sql \u2014 do not edit.\n");
        Generator.WriteResult first = Generator.write(files, out);
        assertThat(first.written()).isEqualTo(files.size());
        assertThat(first.deleted()).isEqualTo(1);
        assertThat(stale).doesNotExist();
        assertThat(mine).exists();
        Generator.WriteResult second = Generator.write(files, out);
        assertThat(second.unchanged()).isEqualTo(files.size());
        assertThat(second.written()).isZero();
    }
}
