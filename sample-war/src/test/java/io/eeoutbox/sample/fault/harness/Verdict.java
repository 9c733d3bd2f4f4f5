package io.eeoutbox.sample.fault.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario's checks: each failed one is kept (the scenario goes on measuring, so its line of
 * figures is complete), and {@link #finish} records the row and then fails the test with all of them.
 */
public final class Verdict {

    private final int number;
    private final String scenario;
    private final long startedNanos = System.nanoTime();
    private final List<String> failures = new ArrayList<>();
    private final Figures.Line figures = new Figures.Line();

    public Verdict(int number, String scenario) {
        this.number = number;
        this.scenario = scenario;
    }

    public Figures.Line figures() {
        return figures;
    }

    public Verdict check(boolean ok, String failure) {
        if (!ok) {
            failures.add(failure);
        }
        return this;
    }

    /** {@code actual} must be {@code expected}; the failure says what was counted. */
    public Verdict expect(String what, long expected, long actual) {
        return check(expected == actual, what + ": expected " + expected + ", found " + actual);
    }

    /**
     * The server holds and logged no heuristic outcome (issue 16: no debris for an operator after a fault):
     * puts {@code heuristic_<instance>} in the figures and fails the scenario otherwise.
     */
    public Verdict noHeuristics(FaultServer server) {
        try {
            FaultServer.Heuristics h = server.heuristics();
            figures.put("heuristic_" + server.instance(), h.count());
            return check(h.count() == 0, "heuristic outcomes on " + server.instance() + ": " + h);
        } catch (java.io.IOException | RuntimeException e) {
            return fail("could not look for heuristic outcomes on " + server.instance() + ": " + e);
        }
    }

    public Verdict fail(String failure) {
        failures.add(failure);
        return this;
    }

    public boolean passed() {
        return failures.isEmpty();
    }

    public List<String> failures() {
        return List.copyOf(failures);
    }

    /** Records the row (with the failures, if any) and throws an AssertionError naming them all. */
    public void finish(FaultSession session, String servers) {
        String text = figures + (failures.isEmpty() ? "" : " | FAILED: " + String.join("; ", failures));
        session.figures().add(new Figures.Row(number, scenario, servers, failures.isEmpty(), text,
                Duration.ofNanos(System.nanoTime() - startedNanos)));
        if (!failures.isEmpty()) {
            throw new AssertionError("S" + number + " " + scenario + ": " + String.join("; ", failures)
                    + "\nfigures: " + figures);
        }
    }

    /** When the scenario broke off with an exception: records what there is; returns the error to throw. */
    public AssertionError abort(FaultSession session, String servers, Throwable cause) {
        failures.add("broke off: " + cause);
        String text = figures + " | FAILED: " + String.join("; ", failures);
        session.figures().add(new Figures.Row(number, scenario, servers, false, text,
                Duration.ofNanos(System.nanoTime() - startedNanos)));
        return new AssertionError("S" + number + " " + scenario + " broke off: " + cause + "\nfigures: " + figures, cause);
    }
}
