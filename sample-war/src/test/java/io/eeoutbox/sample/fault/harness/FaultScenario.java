package io.eeoutbox.sample.fault.harness;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every fault scenario ({@code *FaultIT}, docs/fault-suite.md) shares: the tag the suite's execution selects,
 * the {@link FaultSession} its methods take as a parameter, its servers stopped after the class, the servers a
 * scenario runs on, and the {@link Verdict} around each run. A scenario extends this class and keeps only what is
 * its own: what it starts, the fault, and its checks.
 */
@Tag("fault")
@ExtendWith(FaultSession.Extension.class)
public abstract class FaultScenario {

    /** One run of a scenario, recording figures and checks in the verdict; returns the servers it ran on. */
    @FunctionalInterface
    protected interface Run {
        String run(Verdict v) throws Exception;
    }

    @AfterAll
    static void stopServers(FaultSession session) {
        session.stopServers();
    }

    /** For {@code @MethodSource("serverKinds")}: WildFly, and Open Liberty in a soak or as -Dfault.servers names. */
    protected static List<String> serverKinds() {
        return FaultSettings.serverKinds();
    }

    /** For {@code @MethodSource("crashServerKinds")}: every provisioned server, or as -Dfault.servers names. */
    protected static List<String> crashServerKinds() {
        return FaultSettings.crashServerKinds();
    }

    /**
     * Runs {@code run} and judges it: the row goes into the figures table and the test fails with every failed
     * check; when the run breaks off, the row records what there is and the test fails with the cause.
     *
     * @param servers the servers to name in the row if the run breaks off before saying which it ran on
     */
    protected static void judge(FaultSession session, Verdict v, String servers, Run run) {
        String ranOn = servers;
        try {
            ranOn = run.run(v);
        } catch (Exception | AssertionError e) {
            throw v.abort(session, ranOn, e);
        }
        v.finish(session, ranOn);
    }

    /**
     * Starts {@code server} and sends one order all the way ({@link Sanity#orderFlows}) before any fault; puts the
     * start time and the order's end-to-end time in the figures, which it returns for the scenario's own.
     */
    protected static Figures.Line startAndCheck(FaultServer server, Verdict v, String customer) throws Exception {
        server.start();
        return v.figures().put("start", server.lastStartDuration())
                .put("first_order_end_to_end", Sanity.orderFlows(server, customer));
    }
}
