package io.eeoutbox.sample.fault.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The lines of a server's log that report a heuristic outcome, read from every file the server wrote it to.
 *
 * <p>A line is heuristic when it is one of Open Liberty's heuristic messages ({@code WTRN0075W}, {@code WTRN0076W},
 * {@code WTRN0096W}, {@code WTRN0097W}, {@code WTRN0102W}); when it names a heuristic decision or heuristic
 * participants; when it is a Narayana ({@code ARJUNA}) line that speaks of a heuristic at all ({@code ARJUNA012084}
 * and its kin, whatever their number, an XA heuristic code or a heuristic exception among them); or when it is
 * another Open Liberty transaction line ({@code WTRN}) with an XA heuristic code or a heuristic exception. Narayana's dump of a
 * resource record ({@code heuristic: TwoPhaseOutcome.FINISH_OK}) names no heuristic outcome: recovery logs it for a
 * transaction it is about to finish after a kill.
 *
 * <p>The log's older files count too: Open Liberty starts a new {@code messages.log} on each start unless told not to
 * (the fault suite's servers are told not to) and both servers roll their log over (by size, or WildFly at midnight),
 * so a check of the current file alone would not see what was logged before a kill.
 */
public final class HeuristicLines {

    private static final Pattern LIBERTY = Pattern.compile("WTRN0075W|WTRN0076W|WTRN0096W|WTRN0097W|WTRN0102W");

    private static final Pattern ANY_SERVER = Pattern.compile("HEURISTIC_(HAZARD|MIXED|ROLLBACK|COMMIT)|heuristic participant");

    private static final Pattern NARAYANA = Pattern.compile("ARJUNA\\d");

    private static final Pattern LIBERTY_TRANSACTIONS = Pattern.compile("WTRN\\d");

    /**
     * XA heuristic codes and heuristic exceptions, counted on the transaction managers' own lines only: an
     * application's stack trace also names them ({@code Caused by: jakarta.transaction.HeuristicMixedException})
     * when a commit it made meets a hazard the server already logged, and that is the same outcome, not another.
     */
    private static final Pattern XA_OR_EXCEPTION = Pattern.compile("XA_HEUR|Heuristic(Mixed|Rollback|Commit|Hazard)Exception");

    /** A resource record's outcome field when the outcome is not heuristic. */
    private static final Pattern RECORD_FIELD = Pattern.compile("heuristic: TwoPhaseOutcome\\.(?!HEURISTIC)[A-Z_]+");

    private static final Pattern HEURISTIC_WORD = Pattern.compile("(?i)heuristic");

    private HeuristicLines() {
    }

    public static boolean isHeuristic(String line) {
        if (LIBERTY.matcher(line).find() || ANY_SERVER.matcher(line).find()) {
            return true;
        }
        boolean transactionManager = NARAYANA.matcher(line).find() || LIBERTY_TRANSACTIONS.matcher(line).find();
        if (transactionManager && XA_OR_EXCEPTION.matcher(line).find()) {
            return true;
        }
        return NARAYANA.matcher(line).find() && HEURISTIC_WORD.matcher(RECORD_FIELD.matcher(line).replaceAll("")).find();
    }

    /**
     * The heuristic lines of {@code currentLog} and of its older files beside it (names that start with the current
     * one's base name: {@code server.log.2026-12-01}, {@code messages_26.12.02_08.10.21.0.log}), oldest file first.
     */
    public static List<String> read(Path currentLog) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Path file : files(currentLog)) {
            for (String line : Files.readAllLines(file, StandardCharsets.ISO_8859_1)) {
                if (isHeuristic(line)) {
                    lines.add(line);
                }
            }
        }
        return lines;
    }

    static List<Path> files(Path currentLog) throws IOException {
        Path dir = currentLog.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            return List.of();
        }
        String name = currentLog.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String base = dot > 0 ? name.substring(0, dot) : name;
        List<Path> older = new ArrayList<>();
        try (Stream<Path> all = Files.list(dir)) {
            all.filter(p -> !p.getFileName().toString().equals(name) && p.getFileName().toString().startsWith(base))
                    .filter(Files::isRegularFile)
                    .forEach(older::add);
        }
        older.sort(Comparator.comparing((Path p) -> {
            try {
                return Files.getLastModifiedTime(p);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).thenComparing(p -> p.getFileName().toString()));
        if (Files.exists(currentLog)) {
            older.add(currentLog);
        }
        return older;
    }
}
