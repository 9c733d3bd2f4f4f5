package io.eeoutbox.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SchemaParserTest {

    private static final String V1 = """
            -- a comment; with a semicolon
            CREATE TABLE IF NOT EXISTS public.things (
                id          UUID PRIMARY KEY DEFAULT gen_random_uuid(),
                seq         BIGINT GENERATED ALWAYS AS IDENTITY,
                name        VARCHAR(100) NOT NULL,
                "Label"     text,
                tags        text[],
                score       INT CHECK (score IS NOT NULL OR score > 0),
                at          TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                doc         JSONB,
                CONSTRAINT things_name_unique UNIQUE (name)
            );
            CREATE INDEX idx_things ON things (seq) WHERE name IS NOT NULL;
            CREATE FUNCTION f() RETURNS trigger AS $$
            BEGIN
                CREATE TABLE ignored (x int);
                RETURN NULL;
            END;
            $$ LANGUAGE plpgsql;
            CREATE VIEW v AS SELECT id FROM things;
            ALTER TABLE things SET (fillfactor = 80);
            """;

    @Test
    void readsColumnsTypesAndNullability() {
        Schema schema = new SchemaParser().parse("sql/schema/V1__t.sql", V1).schema();
        assertThat(schema.tables()).extracting(Schema.Table::name).containsExactly("things");
        Schema.Table t = schema.table("things").orElseThrow();
        assertThat(t.columns()).extracting(c -> c.name() + " " + c.type().text() + (c.nullable() ? " null" : ""))
                .containsExactly("id uuid", "seq bigint", "name varchar(100)", "Label text null", "tags text[] null",
                        "score int null", "at timestamp with time zone", "doc jsonb null");
        assertThat(t.primaryKey()).extracting(Schema.Column::name).containsExactly("id");
        assertThat(t.column("at").orElseThrow().type().sqlType()).isEqualTo(SqlType.TIMESTAMPTZ);
        assertThat(t.column("name").orElseThrow().line()).isEqualTo(5);
    }

    @Test
    void aTablePrimaryKeyConstraintMakesItsColumnsNotNull() {
        Schema schema = new SchemaParser().parse("V3.sql", """
                CREATE TABLE processed_events (
                    consumer     VARCHAR(100),
                    event_id     UUID,
                    processed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
                    CONSTRAINT pk PRIMARY KEY (consumer, event_id)
                );""").schema();
        Schema.Table t = schema.table("processed_events").orElseThrow();
        assertThat(t.primaryKey()).extracting(Schema.Column::name).containsExactly("consumer", "event_id");
        assertThat(t.columns()).noneMatch(Schema.Column::nullable);
    }

    @Test
    void aColumnAddedByAlterTableJoinsItsTable() {
        Schema schema = new SchemaParser().parse("V1.sql", "CREATE TABLE t (id uuid PRIMARY KEY);")
                .parse("V2.sql", """
                        ALTER TABLE t SET (fillfactor = 80);
                        ALTER TABLE IF EXISTS public.t ADD COLUMN note TEXT, ADD IF NOT EXISTS n INT NOT NULL DEFAULT 0,
                            ADD CONSTRAINT t_note CHECK (length(note) < 10) NOT VALID;
                        ALTER TABLE other ADD COLUMN x int;
                        """).schema();
        assertThat(schema.table("t").orElseThrow().columns())
                .extracting(c -> c.name() + " " + c.type().text() + (c.nullable() ? " null" : ""))
                .containsExactly("id uuid", "note text null", "n int");
        assertThat(schema.table("other")).isEmpty();
    }

    @Test
    void theRealMigrationsParse() {
        SchemaParser parser = new SchemaParser();
        for (String name : Generator.migrationOrder(TestFiles.migrations().keySet())) {
            parser.parse(name, TestFiles.migrations().get(name));
        }
        Schema schema = parser.schema();
        assertThat(schema.tables()).extracting(Schema.Table::name).contains("outbox_events", "processed_events");
        Schema.Table events = schema.table("outbox_events").orElseThrow();
        assertThat(events.column("seq").orElseThrow().nullable()).isFalse();
        assertThat(events.column("dead_at").orElseThrow().nullable()).isTrue();
        assertThat(events.column("payload").orElseThrow().type().sqlType()).isEqualTo(SqlType.JSONB);
        assertThat(events.column("tracingspancontext").orElseThrow().nullable()).isTrue();
    }

    @Test
    void migrationsAreOrderedByVersionNumber() {
        assertThat(Generator.migrationOrder(java.util.Set.of("V10__c.sql", "V2__b.sql", "V1__a.sql", "V2_1__x.sql",
                "R__views.sql", "notes.txt"))).containsExactly("V1__a.sql", "V2__b.sql", "V2_1__x.sql", "V10__c.sql");
    }

    @Test
    void anUnreadableColumnIsReportedWithItsLine() {
        assertThatThrownBy(() -> new SchemaParser().parse("V1.sql", "CREATE TABLE t (\n  id uuid,\n  'x' int\n);")
                .schema()).hasMessage("V1.sql:3: expected a column name, found 'x'");
    }
}
