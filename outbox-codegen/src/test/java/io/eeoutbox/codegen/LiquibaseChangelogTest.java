package io.eeoutbox.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * sql/liquibase/changelog.xml runs the files of sql/schema, and no SQL of its own: one change set per migration, in
 * version order, the NOTIFY migrations labelled "notify" (LiquibaseChangelogIT in outbox-jpa applies it and compares
 * the result with the migrations applied in order). A migration added to sql/schema and not to the changelog fails here.
 */
class LiquibaseChangelogTest {

    private static final Pattern CHANGE_SET = Pattern.compile(
            "<changeSet id=\"ee-outbox-(V\\d+)\" author=\"ee-outbox\"( labels=\"notify\")?>\\s*"
                    + "<sqlFile path=\"db/ee-outbox/([^\"]+)\" splitStatements=\"false\" stripComments=\"false\"/>\\s*"
                    + "</changeSet>");

    @Test
    void runsEveryMigrationInOrderAndLabelsTheNotifyOnes() throws Exception {
        String changelog = Files.readString(TestFiles.sqlDirectory().resolve("liquibase/changelog.xml"));
        List<String> files = new ArrayList<>();
        Matcher m = CHANGE_SET.matcher(changelog);
        while (m.find()) {
            String file = m.group(3);
            files.add(file);
            assertThat(file).as("change set %s", m.group(1)).startsWith(m.group(1) + "__");
            assertThat(m.group(2) != null).as("label notify on %s", file).isEqualTo(file.contains("notify"));
        }
        assertThat(files).isEqualTo(Generator.migrationOrder(TestFiles.migrations().keySet()));
        assertThat(changelog.split("<changeSet ", -1)).as("nothing but those change sets").hasSize(files.size() + 1);
        assertThat(changelog).doesNotContain("<sql>", "<sql ", "<createTable", "<addColumn");
    }
}
