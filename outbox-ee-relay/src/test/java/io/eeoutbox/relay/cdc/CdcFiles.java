package io.eeoutbox.relay.cdc;

import io.eeoutbox.relay.RelayIt;
import io.eeoutbox.testing.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The CDC path's files under docs/cdc/, which docs/cdc.md shows verbatim and the tests run. */
public final class CdcFiles {

    static final Path DOCS = Path.of("..", "docs");
    static final Path GUIDE = DOCS.resolve("cdc.md");
    static final Path CONNECTOR = DOCS.resolve("cdc/ee-outbox-connector.json");
    static final Path SETUP = DOCS.resolve("cdc/ee-outbox-cdc-setup.sql");
    static final Path LAG = DOCS.resolve("cdc/ee-outbox-cdc-lag.sql");

    private CdcFiles() {
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file.toAbsolutePath(), e);
        }
    }

    /** The connector's name and its "config" object, as Kafka Connect's REST API takes them. */
    public record Connector(String name, Map<String, String> config) {
    }

    public static Connector connector() {
        try (JsonReader reader = Json.createReader(new StringReader(read(CONNECTOR)))) {
            JsonObject root = reader.readObject();
            Map<String, String> config = new LinkedHashMap<>();
            root.getJsonObject("config").forEach((k, v) -> config.put(k, ((JsonString) v).getString()));
            return new Connector(root.getString("name"), config);
        }
    }

    /**
     * The topic of the connector's heartbeats ({@code heartbeat.interval.ms}): Debezium's prefix, a dot and the file's
     * {@code topic.prefix}. The tests' broker creates no topic by itself, as docs/cdc.md tells users of such brokers.
     */
    public static String heartbeatTopic() {
        return EmbeddedConnector.HEARTBEATS + "." + connector().config().get("topic.prefix");
    }

    /** The connector file's configuration with the connection of the test database {@code db} in the example's place. */
    public static Map<String, String> configFor(Connector file, TestDatabase.Db db) {
        Map<String, String> config = new LinkedHashMap<>(file.config());
        var url = java.net.URI.create(db.url().substring("jdbc:".length()));
        config.put("database.hostname", url.getHost());
        config.put("database.port", Integer.toString(url.getPort()));
        config.put("database.dbname", db.name());
        config.put("database.password", "change-me"); // the setup file's; the embedded server trusts local logins
        return config;
    }

    /** No WAL kept after a test: the connector's slot goes (it is inactive once the engine stopped), then its role. */
    public static void dropSlotAndRole(TestDatabase.Db db) throws InterruptedException {
        RelayIt.await(Duration.ofSeconds(30), "the slot ee_outbox_cdc is no longer in use", () -> db.queryLong(
                "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'ee_outbox_cdc' AND active") == 0);
        if (db.queryLong("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'ee_outbox_cdc'") == 1) {
            db.execute("SELECT pg_drop_replication_slot('ee_outbox_cdc');"); // as docs/cdc.md gives it
        }
        db.execute("DROP PUBLICATION IF EXISTS ee_outbox_cdc");
        db.execute("DROP OWNED BY outbox_cdc");
        db.execute("DROP ROLE outbox_cdc");
        if (db.queryLong("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'ee_outbox_cdc'") != 0) {
            throw new AssertionError("the slot ee_outbox_cdc is still there: it would keep WAL");
        }
    }

    /** The setup file's statements, one each: every statement ends a line with ';', comments are whole lines. */
    public static List<String> setupStatements() {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : read(SETUP).split("\n")) {
            if (line.isBlank() || line.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (line.stripTrailing().endsWith(";")) {
                statements.add(current.toString().trim());
                current.setLength(0);
            }
        }
        if (!current.isEmpty()) {
            throw new IllegalStateException(SETUP + " ends without ';': " + current);
        }
        return statements;
    }

    /** The fenced blocks of a Markdown text whose opening fence names {@code language}, in order. */
    static List<String> fencedBlocks(String markdown, String language) {
        List<String> blocks = new ArrayList<>();
        StringBuilder block = null;
        for (String line : markdown.split("\n", -1)) {
            if (block == null && line.equals("```" + language)) {
                block = new StringBuilder();
            } else if (block != null && line.equals("```")) {
                blocks.add(block.toString());
                block = null;
            } else if (block != null) {
                block.append(line).append('\n');
            }
        }
        return blocks;
    }
}
