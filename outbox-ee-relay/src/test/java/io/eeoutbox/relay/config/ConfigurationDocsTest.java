package io.eeoutbox.relay.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.relay.ee.ResourceNames;
import io.eeoutbox.relay.ops.OpsConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The configuration tables in the README and in docs/operations.md are the declarations' own: each table sits
 * between {@code <!-- settings:NAME -->} and {@code <!-- /settings:NAME -->} and must equal what
 * {@link #table} renders from the declared settings. Run with {@code -Ddocs.update=true} to rewrite the
 * tables after changing a declaration.
 */
class ConfigurationDocsTest {

    private static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").toAbsolutePath().normalize();

    @Test
    void theReadmeTablesAreTheDeclaredSettings() throws IOException {
        check(ROOT.resolve("README.md"), "relay", RelaySettings.ALL);
        check(ROOT.resolve("README.md"), "resources", ResourceNames.ALL);
    }

    @Test
    void theOperationsTableIsTheDeclaredSettings() throws IOException {
        check(ROOT.resolve("docs/operations.md"), "observability", OpsConfig.ALL);
    }

    @Test
    void everyKeyIsDeclaredOnce() {
        List<String> keys = new ArrayList<>();
        for (List<Setting<?>> group : List.of(RelaySettings.ALL, ResourceNames.ALL, OpsConfig.ALL)) {
            group.forEach(s -> keys.add(s.key()));
        }
        assertThat(keys).doesNotHaveDuplicates().allMatch(k -> k.matches("outbox\\.relay\\.[a-z0-9.-]+"));
    }

    static String table(List<Setting<?>> settings) {
        StringBuilder out = new StringBuilder("| key | default | accepted | meaning |\n| --- | --- | --- | --- |\n");
        for (Setting<?> s : settings) {
            out.append("| `").append(s.key()).append("` | ").append(documentedDefault(s)).append(" | ")
                    .append(s.allowed()).append(" | ").append(s.description()).append(" |\n");
        }
        return out.toString();
    }

    private static <T> String documentedDefault(Setting<T> s) {
        T d = s.defaultValue();
        return d != null && s.documentedDefault().equals(s.show(d)) ? "`" + s.documentedDefault() + "`"
                : s.documentedDefault();
    }

    private static void check(Path file, String name, List<Setting<?>> settings) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String open = "<!-- settings:" + name + " -->\n";
        String close = "<!-- /settings:" + name + " -->";
        int from = text.indexOf(open);
        int to = text.indexOf(close);
        assertThat(from).as("%s has a table marked %s ... %s", file, open.trim(), close).isNotNegative();
        assertThat(to).as("%s closes the table %s", file, name).isGreaterThan(from);
        String rendered = table(settings);
        String inFile = text.substring(from + open.length(), to);
        if (!inFile.equals(rendered) && Boolean.getBoolean("docs.update")) {
            Files.writeString(file, text.substring(0, from + open.length()) + rendered + text.substring(to),
                    StandardCharsets.UTF_8);
            return;
        }
        assertThat(inFile).as("the %s table in %s differs from the declared settings (run this test with"
                + " -Ddocs.update=true to rewrite it)", name, ROOT.relativize(file)).isEqualTo(rendered);
    }
}
