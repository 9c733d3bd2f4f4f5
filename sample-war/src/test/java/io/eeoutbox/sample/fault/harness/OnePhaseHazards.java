package io.eeoutbox.sample.fault.harness;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sorts a server's heuristic log lines (from {@link FaultServer#heuristics()}) into the hazards of a one-phase
 * database commit cut by a database outage, and everything else.
 *
 * <p>A hazard is a commit whose outcome the server cannot know: Open Liberty's {@code WTRN0075W}, Narayana's
 * {@code ARJUNA012084} ("One-phase commit of action ... received heuristic decision") when the decision is
 * {@code HEURISTIC_HAZARD}; the same message with a mixed, rolled back or committed decision is another outcome.
 * On Open Liberty a message-driven bean's transaction holds the message (XA) and the one-phase database resource
 * (last participant support); when that resource's commit has a hazard, Liberty logs {@code WTRN0075W} and then,
 * for the same transaction, {@code WTRN0102W} "Transaction is heuristically rolled back": it rolled back the
 * message, which the broker delivers again, and forgot the transaction (nothing stays in its recovery log;
 * {@code lpsHeuristicCompletion="ROLLBACK"}, which the sample's configuration states; with {@code COMMIT} Liberty
 * would log {@code WTRN0096W} instead, never accepted here). That line is the same hazard's end, not another
 * outcome: one {@code WTRN0102W} is accepted for each {@code WTRN0075W} of its transaction logged before it, and
 * any other counts among the others.
 */
public final class OnePhaseHazards {

    private static final Pattern LIBERTY_HAZARD = Pattern.compile("WTRN0075W");

    private static final Pattern HAZARD_DECISION = Pattern.compile("HEURISTIC_HAZARD");

    private static final Pattern OTHER_DECISION = Pattern.compile("HEURISTIC_(MIXED|ROLLBACK|COMMIT)");

    private static final Pattern ROLLED_BACK_AFTER_HAZARD = Pattern.compile("WTRN0102W");

    /** Open Liberty's transaction name: a long run of hex digits ({@code 000001A2...00000001}). */
    private static final Pattern TRANSACTION = Pattern.compile("\\b[0-9A-Fa-f]{32,}\\b");

    private final int hazards;
    private final int rolledBackAfterHazard;
    private final List<String> others;

    private OnePhaseHazards(int hazards, int rolledBackAfterHazard, List<String> others) {
        this.hazards = hazards;
        this.rolledBackAfterHazard = rolledBackAfterHazard;
        this.others = others;
    }

    /** Sorts the lines, in the order the server logged them. */
    public static OnePhaseHazards sort(List<String> lines) {
        Map<String, Integer> openHazards = new HashMap<>();
        int hazards = 0;
        int rolledBack = 0;
        List<String> others = new ArrayList<>();
        for (String line : lines) {
            String tx = transaction(line).orElse(null);
            if (isHazard(line)) {
                hazards++;
                if (tx != null) {
                    openHazards.merge(tx, 1, Integer::sum);
                }
            } else if (ROLLED_BACK_AFTER_HAZARD.matcher(line).find() && openHazards.getOrDefault(tx, 0) > 0) {
                openHazards.merge(tx, -1, Integer::sum);
                rolledBack++;
            } else {
                others.add(line);
            }
        }
        return new OnePhaseHazards(hazards, rolledBack, List.copyOf(others));
    }

    private static boolean isHazard(String line) {
        return LIBERTY_HAZARD.matcher(line).find()
                || (HAZARD_DECISION.matcher(line).find() && !OTHER_DECISION.matcher(line).find());
    }

    private static Optional<String> transaction(String line) {
        Matcher m = TRANSACTION.matcher(line);
        return m.find() ? Optional.of(m.group().toUpperCase(java.util.Locale.ROOT)) : Optional.empty();
    }

    /** Commits whose outcome was unknown. */
    public int hazards() {
        return hazards;
    }

    /** Open Liberty's {@code WTRN0102W} lines that end a hazard logged before them for the same transaction. */
    public int rolledBackAfterHazard() {
        return rolledBackAfterHazard;
    }

    /** Every other heuristic line: an outcome the scenario does not accept. */
    public List<String> others() {
        return others;
    }
}
