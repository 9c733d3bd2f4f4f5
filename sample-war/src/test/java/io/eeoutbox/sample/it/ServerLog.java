package io.eeoutbox.sample.it;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The log file of the server the suite runs on, read from the test JVM: WildFly's
 * {@code standalone/log/server.log} or Liberty's {@code logs/messages.log}. {@link #mark()} remembers
 * the end of the file; {@link #linesSinceMark()} reads what was written after it.
 */
final class ServerLog {

    /** WildFly: {@code 2026-01-01 12:00:00,000 ERROR [category] (thread) ...}. */
    private static final Pattern WILDFLY_ERROR = Pattern.compile("^\\S+ \\S+ ERROR ");
    /** Liberty: {@code [1/1/26, 12:00:00:000 UTC] 0000002e com.example.Class   E MSG0001E: ...}. */
    private static final Pattern LIBERTY_ERROR = Pattern.compile("^\\[[^\\]]+\\] \\S+ \\S+\\s+E ");

    private final Path file;
    private final Pattern error;
    private long mark;

    private ServerLog(Path file, Pattern error) {
        this.file = file;
        this.error = error;
    }

    /** The log of the server chosen by {@code arquillian.launch}. */
    static ServerLog ofThisSuite() {
        String server = System.getProperty("arquillian.launch", "");
        if (server.equals("wildfly")) {
            return new ServerLog(Path.of(System.getProperty("wildfly.home"), "standalone", "log", "server.log"), WILDFLY_ERROR);
        }
        if (server.equals("liberty")) {
            return new ServerLog(Path.of(System.getProperty("liberty.home"), "usr", "servers",
                    System.getProperty("liberty.server"), "logs", "messages.log"), LIBERTY_ERROR);
        }
        throw new IllegalStateException("unknown server arquillian.launch=" + server);
    }

    /** The application's base URL on this suite's server, for a deployment named {@code contextRoot}. */
    static String baseUrl(String contextRoot) {
        String server = System.getProperty("arquillian.launch", "");
        int port = server.equals("wildfly")
                ? 8080 + Integer.getInteger("wildfly.port-offset", 0)
                : Integer.getInteger("liberty.http-port", 9080);
        return "http://127.0.0.1:" + port + "/" + contextRoot + "/";
    }

    void mark() throws IOException {
        mark = Files.exists(file) ? Files.size(file) : 0;
    }

    List<String> linesSinceMark() throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long length = raf.length();
            long from = length < mark ? 0 : mark; // the file was rotated: all of the new one
            byte[] bytes = new byte[(int) (length - from)];
            raf.seek(from);
            raf.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8).lines().toList();
        }
    }

    /** The relay's own line when it has stopped: {@code relay <name> stopped}. */
    static boolean isRelayStopped(String line) {
        return line.matches(".*\\brelay \\S+ stopped\\b.*");
    }

    boolean isError(String line) {
        return error.matcher(line).find();
    }

    Path file() {
        return file;
    }
}
