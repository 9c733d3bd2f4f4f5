package io.eeoutbox.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * sql/CURRENT.md, the map of which migration holds the current definition of every table, view, index, function
 * and trigger, is what the migrations say: read in version order, the last {@code CREATE [OR REPLACE]} of an object
 * not dropped since wins (a function is one per signature: PostgreSQL overloads by argument types). When a
 * migration adds or redefines one, run this test with {@code -Doutbox.sql.write-current=true} to rewrite the map.
 */
class CurrentDefinitionsTest {

    private static final Pattern STATEMENT = Pattern.compile("(?is)\\b(CREATE(?:\\s+OR\\s+REPLACE)?|DROP|ALTER)\\s+"
            + "(FUNCTION|TRIGGER|TABLE|VIEW|(?:UNIQUE\\s+)?INDEX)\\s+(?:IF\\s+(?:NOT\\s+)?EXISTS\\s+)?"
            + "(?:CONCURRENTLY\\s+)?([a-z_][a-z0-9_.]*)");
    private static final Pattern TRIGGER_TABLE = Pattern.compile("(?is)\\bON\\s+([a-z_][a-z0-9_.]*)");
    private static final String HEADER = """
            # Where the current definition of each schema object is

            Migrations are history: `schema/` keeps every version of a function, and the one that runs is the last \
            `CREATE` (or `CREATE OR REPLACE`) of its signature not dropped since. This map names that migration for \
            every table, view, index, function (one line per signature: PostgreSQL overloads by argument types) and \
            trigger; "changed in" lists the migrations that defined it before or altered it. It is checked against \
            `schema/` by `CurrentDefinitionsTest` in outbox-codegen (rewrite it with \
            `mvn -pl outbox-codegen test -Dtest=CurrentDefinitionsTest -Doutbox.sql.write-current=true`).

            | object | current definition | changed in |
            | --- | --- | --- |
            """;

    @Test
    void theMapNamesTheMigrationOfEveryCurrentDefinition() throws IOException {
        Path map = TestFiles.sqlDirectory().resolve("CURRENT.md");
        String expected = render(TestFiles.migrations());
        if (Boolean.getBoolean("outbox.sql.write-current")) {
            Files.writeString(map, expected, StandardCharsets.UTF_8);
        }
        assertThat(Files.exists(map) ? Files.readString(map, StandardCharsets.UTF_8) : "")
                .as("sql/CURRENT.md against sql/schema (rewrite it with -Doutbox.sql.write-current=true)")
                .isEqualTo(expected);
    }

    @Test
    void aRedefinitionMovesTheLineAndADropRemovesIt() {
        Map<String, String> migrations = new LinkedHashMap<>();
        migrations.put("V1__a.sql", "CREATE TABLE t (id int);\nCREATE FUNCTION f(p_a int, p_b uuid[]) RETURNS int"
                + " LANGUAGE sql AS $$ SELECT 1 $$;\nCREATE FUNCTION g() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;\n"
                + "CREATE TRIGGER t_go AFTER INSERT ON t FOR EACH STATEMENT EXECUTE FUNCTION g();");
        migrations.put("V2__b.sql", "-- CREATE FUNCTION in a comment is no definition\n"
                + "CREATE OR REPLACE FUNCTION f(p_a int, p_b uuid[]) RETURNS int LANGUAGE sql AS $$ SELECT 2 $$;\n"
                + "CREATE FUNCTION f(p_a int) RETURNS int LANGUAGE sql AS $$ SELECT 3 $$;\n"
                + "ALTER TABLE t ADD COLUMN x int;");
        migrations.put("V10__c.sql", "DROP FUNCTION f(int);\nDROP TRIGGER t_go ON t;");
        assertThat(rows(migrations)).containsExactly(
                "| table `t` | V1__a.sql | V2__b.sql |",
                "| function `f(int, uuid[])` | V2__b.sql | V1__a.sql |",
                "| function `g()` | V1__a.sql |  |");
    }

    /** The map's text for these migrations. */
    static String render(Map<String, String> migrations) {
        StringBuilder out = new StringBuilder(HEADER);
        for (String row : rows(migrations)) {
            out.append(row).append('\n');
        }
        return out.toString();
    }

    private record Definition(String kind, String name, String current, List<String> changes) {
    }

    /** One row per object alive after the last migration: tables, views, indexes, triggers, functions, by name. */
    static List<String> rows(Map<String, String> migrations) {
        Map<String, Definition> alive = new LinkedHashMap<>();
        Map<String, List<String>> history = new LinkedHashMap<>();
        Map<String, String> lastCreated = new LinkedHashMap<>();
        for (String file : Generator.migrationOrder(migrations.keySet())) {
            String sql = withoutComments(migrations.get(file));
            Matcher m = STATEMENT.matcher(sql);
            while (m.find()) {
                String verb = m.group(1).toUpperCase(Locale.ROOT).split("\\s+")[0];
                String kind = m.group(2).toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").replace("unique ", "");
                String name = m.group(3).toLowerCase(Locale.ROOT);
                if (kind.equals("function")) {
                    name = name + "(" + String.join(", ", argumentTypes(sql, m.end(), verb.equals("DROP"))) + ")";
                } else if (kind.equals("trigger")) {
                    Matcher on = TRIGGER_TABLE.matcher(sql);
                    if (on.find(m.end())) {
                        name = name + " on " + on.group(1).toLowerCase(Locale.ROOT);
                    }
                }
                String key = kind + " " + name;
                List<String> changes = history.computeIfAbsent(key, k -> new ArrayList<>());
                switch (verb) {
                    case "CREATE" -> {
                        String before = lastCreated.put(key, file);
                        if (before != null && !changes.contains(before)) {
                            changes.add(before); // redefined (CREATE OR REPLACE, or DROP and CREATE again)
                        }
                        alive.put(key, new Definition(kind, name, file, changes));
                    }
                    case "ALTER" -> {
                        if (alive.containsKey(key) && !changes.contains(file)) {
                            changes.add(file);
                        }
                    }
                    default -> alive.remove(key); // DROP
                }
            }
        }
        List<String> kinds = List.of("table", "view", "index", "trigger", "function");
        List<String> rows = new ArrayList<>();
        alive.values().stream()
                .sorted(java.util.Comparator.comparing((Definition d) -> kinds.indexOf(d.kind()))
                        .thenComparing(Definition::name))
                .forEach(d -> {
                    List<String> changes = new ArrayList<>(d.changes());
                    changes.remove(d.current());
                    rows.add("| " + d.kind() + " `" + d.name() + "` | " + d.current() + " | "
                            + String.join(", ", changes) + " |");
                });
        return rows;
    }

    /** The types of the parenthesised argument list after {@code from}; names (and defaults) left out. */
    private static List<String> argumentTypes(String sql, int from, boolean typesOnly) {
        int open = sql.indexOf('(', from);
        int depth = 0;
        int close = open;
        for (int i = open; i < sql.length(); i++) {
            char c = sql.charAt(i);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (depth == 0) {
                close = i;
                break;
            }
        }
        List<String> types = new ArrayList<>();
        String inside = sql.substring(open + 1, close).trim();
        if (inside.isEmpty()) {
            return types;
        }
        for (String argument : inside.split(",")) {
            String a = argument.trim().toLowerCase(Locale.ROOT).replaceAll("\\s+default\\s.*$", "")
                    .replaceAll("^(in|out|inout)\\s+", "");
            String[] words = a.split("\\s+");
            String type = typesOnly || words.length == 1 ? a : a.substring(a.indexOf(' ') + 1);
            types.add(type.replaceAll("\\s+", " ").replaceAll("^integer", "int"));
        }
        return types;
    }

    /** The SQL without {@code --} comments (block comments are not used in sql/schema). */
    private static String withoutComments(String sql) {
        return sql.replaceAll("--[^\\n]*", "");
    }
}
