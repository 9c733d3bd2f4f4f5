package io.eeoutbox.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.codegen.CodegenException.Problem;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryParserTest {

    static final String SCHEMA = """
            CREATE TABLE things (
                id         UUID PRIMARY KEY,
                seq        BIGINT GENERATED ALWAYS AS IDENTITY,
                name       VARCHAR(100) NOT NULL,
                note       TEXT,
                tags       TEXT[],
                created_at TIMESTAMPTZ NOT NULL
            );
            CREATE TABLE others (
                other_id   UUID PRIMARY KEY,
                done       BOOLEAN NOT NULL
            );
            """;

    private final List<Problem> problems = new ArrayList<>();

    private QueryFile parse(String queries) {
        Schema schema = new SchemaParser().parse("sql/schema/V1__t.sql", SCHEMA).schema();
        return new QueryParser(schema, problems).parse("sql/queries/things.sql", "things", queries);
    }

    private Query only(String queries) {
        QueryFile file = parse(queries);
        assertThat(problems).isEmpty();
        assertThat(file.queries()).hasSize(1);
        return file.queries().get(0);
    }

    @Test
    void readsNameKindDocAndStatement() {
        QueryFile file = parse("""
                -- File header: not a query's doc.

                -- name: FindThing :one
                -- Finds one thing.
                -- By its `id`.
                SELECT id, name
                FROM things   -- trailing comment; with a semicolon
                WHERE id = @id::uuid;

                -- name: CountThings :one
                SELECT count(*)::bigint AS total FROM things;
                """);
        assertThat(problems).isEmpty();
        assertThat(file.entity()).isEqualTo("Thing");
        Query q = file.queries().get(0);
        assertThat(q.name()).isEqualTo("FindThing");
        assertThat(q.kind()).isEqualTo(QueryKind.ONE);
        assertThat(q.line()).isEqualTo(3);
        assertThat(q.doc()).containsExactly("Finds one thing.", "By its `id`.");
        assertThat(q.jdbcSql()).isEqualTo("SELECT id, name FROM things WHERE id = CAST(? AS uuid)");
        assertThat(q.nativeSql()).isEqualTo("SELECT id, name FROM things WHERE id = CAST(?1 AS uuid)");
        assertThat(file.queries().get(1).doc()).isEmpty();
    }

    @Test
    void numbersParametersByFirstAppearanceAndRepeatsThem() {
        Query q = only("""
                -- name: Touch :execrows
                UPDATE things SET note = sqlc.narg(note)::text, created_at = @now::timestamptz
                WHERE created_at < @now::timestamptz AND id = ANY (sqlc.arg(ids)::uuid[])
                  AND name <> '@not_a_param' /* nor @this */ AND tags @> ARRAY['a']::text[];
                """);
        assertThat(q.parameters()).extracting(p -> p.name() + ":" + p.type().text() + (p.nullable() ? "?" : ""))
                .containsExactly("note:text?", "now:timestamptz", "ids:uuid[]");
        assertThat(q.occurrences()).extracting(Parameter::name).containsExactly("note", "now", "now", "ids");
        assertThat(q.nativeSql()).isEqualTo("UPDATE things SET note = CAST(?1 AS text), created_at = CAST(?2 AS"
                + " timestamptz) WHERE created_at < CAST(?2 AS timestamptz) AND id = ANY (CAST(?3 AS uuid[]))"
                + " AND name <> '@not_a_param' AND tags @> ARRAY['a']::text[]");
        assertThat(q.jdbcSql()).contains("SET note = CAST(? AS text), created_at = CAST(? AS timestamptz) WHERE"
                + " created_at < CAST(? AS timestamptz) AND id = ANY (CAST(? AS uuid[]))");
        assertThat(q.columns()).isEmpty();
    }

    @Test
    void stringLiteralsKeepTheirWhitespaceAndMultiWordTypesAreKept() {
        Query q = only("""
                -- name: Odd :many
                SELECT id
                FROM   things
                WHERE  name = 'two  spaces;
                and a line' AND created_at > @since::timestamp with time zone
                  AND note = @n::character varying(20);
                """);
        assertThat(q.jdbcSql()).isEqualTo("SELECT id FROM things WHERE name = 'two  spaces;\nand a line' AND"
                + " created_at > CAST(? AS timestamp with time zone) AND note = CAST(? AS character varying(20))");
        assertThat(q.parameters().get(0).sqlType()).isEqualTo(SqlType.TIMESTAMPTZ);
        assertThat(q.parameters().get(1).sqlType()).isEqualTo(SqlType.VARCHAR);
    }

    @Test
    void resultColumnsComeFromTheSchemaOrFromCasts() {
        Query q = only("""
                -- name: Report :many
                SELECT t.id, seq AS position, note, o.done, count(*)::int AS n,
                       max(t.created_at)::timestamptz AS latest, (tags)::text[] AS labels
                FROM things t JOIN others o ON o.other_id = t.id
                GROUP BY t.id, seq, note, o.done;
                """);
        assertThat(q.columns()).extracting(c -> c.name() + " " + c.type().text() + (c.nullable() ? " null" : "")
                + (c.fromSchema() ? " schema" : "")).containsExactly("id uuid schema", "position bigint schema",
                "note text null schema", "done boolean schema", "n int", "latest timestamptz null",
                "labels text[] null");
    }

    @Test
    void returningListsAreResults() {
        Query q = only("""
                -- name: Rename :one
                WITH x AS (SELECT id FROM things LIMIT 1)
                UPDATE things SET name = @name::varchar WHERE id IN (SELECT id FROM x) RETURNING id, name;
                """);
        assertThat(q.columns()).extracting(ResultColumn::name).containsExactly("id", "name");
    }

    // ---- errors ---------------------------------------------------------------------------------

    private List<String> errors(String queries) {
        parse(queries);
        return problems.stream().map(Problem::toString).toList();
    }

    @Test
    void unknownKind() {
        assertThat(errors("-- name: Batch :batch\nSELECT id FROM things;\n"))
                .containsExactly("sql/queries/things.sql:1: unknown query kind :batch for Batch (expected :one,"
                        + " :many, :exec or :execrows)");
    }

    @Test
    void malformedNameLine() {
        assertThat(errors("-- name: NoKind\nSELECT id FROM things;\n"))
                .containsExactly("sql/queries/things.sql:1: expected `-- name: QueryName :kind`, found"
                        + " `-- name: NoKind`");
        problems.clear();
        assertThat(errors("-- name: lower_case :one\nSELECT id FROM things;\n"))
                .containsExactly("sql/queries/things.sql:1: query name lower_case must be PascalCase, such as"
                        + " FindOutboxEvent");
    }

    @Test
    void missingSemicolon() {
        assertThat(errors("""
                -- name: First :many
                SELECT id FROM things

                -- name: Second :many
                SELECT id FROM things;

                -- name: Last :many
                SELECT id FROM things
                """)).containsExactly("sql/queries/things.sql:1: missing `;` at the end of query First",
                "sql/queries/things.sql:7: missing `;` at the end of query Last");
    }

    @Test
    void atSignWithoutName() {
        assertThat(errors("-- name: Q :many\nSELECT id FROM things\nWHERE id = @::uuid;\n"))
                .containsExactly("sql/queries/things.sql:3: malformed parameter in Q: `@` must be followed by a"
                        + " parameter name, as in @id::uuid (for the absolute value, use abs())");
    }

    @Test
    void sqlcArgNotClosed() {
        assertThat(errors("-- name: Q :many\nSELECT id FROM things\n\nWHERE id = sqlc.arg(id::uuid;\n"))
                .containsExactly("sql/queries/things.sql:4: malformed parameter in Q: sqlc.arg(id is not closed"
                        + " with `)`");
        problems.clear();
        assertThat(errors("-- name: Q :many\nSELECT id FROM things WHERE id = sqlc.narg()::uuid;\n"))
                .containsExactly("sql/queries/things.sql:2: malformed parameter in Q: sqlc.narg( must be"
                        + " followed by a parameter name");
        problems.clear();
        assertThat(errors("-- name: Q :many\nSELECT id FROM things WHERE id = sqlc.slice(ids);\n"))
                .containsExactly("sql/queries/things.sql:2: malformed parameter in Q: sqlc.slice is not supported"
                        + " (use sqlc.arg(name) or sqlc.narg(name))");
    }

    @Test
    void parameterWithoutCast() {
        assertThat(errors("-- name: Q :many\nSELECT id FROM things\nWHERE id = @id;\n"))
                .containsExactly("sql/queries/things.sql:3: parameter @id in Q has no type: write it with a cast,"
                        + " as in @id::uuid");
        problems.clear();
        assertThat(errors("-- name: Q :many\nSELECT id FROM things WHERE id = sqlc.narg(id) OR true;\n"))
                .containsExactly("sql/queries/things.sql:2: parameter sqlc.narg(id) in Q has no type: write it with"
                        + " a cast, as in sqlc.narg(id)::uuid");
    }

    @Test
    void oneNameTwoTypes() {
        assertThat(errors("-- name: Q :many\nSELECT id FROM things\nWHERE seq > @n::bigint\n  AND name = @n::text;\n"))
                .containsExactly("sql/queries/things.sql:4: parameter n in Q is cast to text here but to bigint on"
                        + " line 3: one name, one type");
    }

    @Test
    void sameNameNullableAndNot() {
        assertThat(errors("-- name: Q :many\nSELECT id FROM things WHERE note = @n::text OR note = sqlc.narg(n)::text;\n"))
                .containsExactly("sql/queries/things.sql:2: parameter n in Q is written with sqlc.narg in one place"
                        + " and not in another (line 2)");
    }

    @Test
    void unknownParameterType() {
        assertThat(errors("-- name: Q :many\nSELECT id FROM things WHERE seq > @n::numeric(10, 2);\n"))
                .containsExactly("sql/queries/things.sql:2: unknown type numeric(10, 2) of parameter @n in Q (known:"
                        + " uuid, varchar, text, int, bigint, boolean, timestamptz, jsonb, json and their arrays)");
    }

    @Test
    void positionalParametersAndQuestionMarkOperatorsAreRefused() {
        assertThat(errors("-- name: Q :many\nSELECT id FROM things WHERE id = $1;\n"))
                .containsExactly("sql/queries/things.sql:2: positional parameter $1 in Q: name it, as in @id::uuid");
        problems.clear();
        assertThat(errors("-- name: Q :many\nSELECT id FROM things WHERE note::jsonb ? 'k';\n"))
                .containsExactly("sql/queries/things.sql:2: operator ? in Q: JDBC and JPA take `?` for a parameter;"
                        + " use the function instead (such as jsonb_exists)");
    }

    @Test
    void unknownColumn() {
        assertThat(errors("-- name: Q :many\nSELECT id,\n       colour\nFROM things;\n"))
                .containsExactly("sql/queries/things.sql:3: query Q: unknown column colour in the result list (not in"
                        + " table things nor in any other table of the schema)");
    }

    @Test
    void computedColumnWithoutCastOrAlias() {
        assertThat(errors("-- name: Q :one\nSELECT count(*) AS n FROM things;\n"))
                .containsExactly("sql/queries/things.sql:2: query Q: the computed column `count ( * )` must end in a"
                        + " ::type cast, as in count(*)::bigint AS total");
        problems.clear();
        assertThat(errors("-- name: Q :one\nSELECT\n  count(*)::bigint FROM things;\n"))
                .containsExactly("sql/queries/things.sql:3: query Q: the computed column `count ( * ) :: bigint`"
                        + " needs a name: add AS alias");
    }

    @Test
    void selectStar() {
        assertThat(errors("-- name: Q :many\nSELECT * FROM things;\n"))
                .containsExactly("sql/queries/things.sql:2: query Q uses SELECT * (or RETURNING *): list the"
                        + " columns, so that the generated code follows the SQL");
        problems.clear();
        assertThat(errors("-- name: Q :many\nDELETE FROM things\nRETURNING t.*;\n")).hasSize(1)
                .allMatch(e -> e.startsWith("sql/queries/things.sql:3: query Q uses SELECT *"));
    }

    @Test
    void kindMustMatchWhetherRowsComeBack() {
        assertThat(errors("-- name: Q :exec\nSELECT id FROM things;\n"))
                .containsExactly("sql/queries/things.sql:1: query Q is :exec but returns rows: use :one or :many, or"
                        + " drop the RETURNING list");
        problems.clear();
        assertThat(errors("-- name: Q :many\nDELETE FROM things;\n"))
                .containsExactly("sql/queries/things.sql:1: query Q is :many but returns no columns: use :exec or"
                        + " :execrows, or add a RETURNING list");
    }

    @Test
    void sqlOutsideAnyQuery() {
        assertThat(errors("SELECT 1;\n-- name: Q :exec\nDELETE FROM things;\n"))
                .containsExactly("sql/queries/things.sql:1: SQL before the first `-- name: QueryName :kind` line");
        problems.clear();
        assertThat(errors("-- name: Q :exec\nDELETE FROM things;\nDELETE FROM others;\n"))
                .containsExactly("sql/queries/things.sql:3: SQL after the `;` that ends the query: start each query"
                        + " with `-- name: QueryName :kind`");
    }

    @Test
    void duplicateResultNames() {
        assertThat(errors("-- name: Q :many\nSELECT id, other_id AS id FROM things, others;\n"))
                .containsExactly("sql/queries/things.sql:2: query Q returns two columns named id: give one an alias");
    }

    @Test
    void everyProblemOfAFileIsReported() {
        assertThat(errors("""
                -- name: A :batch
                SELECT id FROM things;
                -- name: B :many
                SELECT * FROM things;
                -- name: C :one
                SELECT nope FROM things;
                """)).hasSize(3);
    }
}
