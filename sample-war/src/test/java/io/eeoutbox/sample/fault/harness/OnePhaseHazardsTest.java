package io.eeoutbox.sample.fault.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class OnePhaseHazardsTest {

    // the transaction name of a message-driven bean's transaction cut by the database restart (CI, 2026-12-02)
    private static final String TX = "000001A234E98FF70000000153A61FE47B31730B878609C4C356BB613A44429767718173"
            + "000001A234E98FF70000000153A61FE47B31730B878609C4C356BB613A4442976771817300000001";
    private static final String OTHER_TX = "000001A234FCE9970000000153F335ACCEB09F24D4BD48C9A6C989EE21AA693F874B8AB6"
            + "000001A234FCE9970000000153F335ACCEB09F24D4BD48C9A6C989EE21AA693F874B8AB600000001";

    private static String hazard(String tx) {
        return "[12/2/26, 4:00:51:870 UTC] 00000021 com.ibm.tx.jta.impl.RegisteredResources                      E"
                + " WTRN0075W: Transaction " + tx + " received a heuristic exception when committing a resource.";
    }

    private static String rolledBack(String tx) {
        return "[12/2/26, 4:00:51:872 UTC] 00000021 com.ibm.tx.jta.impl.TransactionImpl                          E"
                + " WTRN0102W: A heuristic condition may have occurred for transaction " + tx
                + ". Transaction is heuristically rolled back.";
    }

    @Test
    void aRollbackThatEndsAHazardOfItsTransactionIsThatHazard() {
        OnePhaseHazards sorted = OnePhaseHazards.sort(List.of(hazard(OTHER_TX), hazard(TX), rolledBack(TX)));
        assertEquals(2, sorted.hazards());
        assertEquals(1, sorted.rolledBackAfterHazard());
        assertEquals(List.of(), sorted.others());
    }

    @Test
    void aRollbackWithoutAHazardOfItsOwnTransactionIsAnotherOutcome() {
        OnePhaseHazards sorted = OnePhaseHazards.sort(List.of(hazard(OTHER_TX), rolledBack(TX)));
        assertEquals(1, sorted.hazards());
        assertEquals(0, sorted.rolledBackAfterHazard());
        assertEquals(List.of(rolledBack(TX)), sorted.others());
    }

    @Test
    void aRollbackLoggedBeforeTheHazardIsNotExplainedByIt() {
        OnePhaseHazards sorted = OnePhaseHazards.sort(List.of(rolledBack(TX), hazard(TX)));
        assertEquals(List.of(rolledBack(TX)), sorted.others());
    }

    @Test
    void oneHazardExplainsOneRollback() {
        OnePhaseHazards sorted = OnePhaseHazards.sort(List.of(hazard(TX), rolledBack(TX), rolledBack(TX)));
        assertEquals(1, sorted.rolledBackAfterHazard());
        assertEquals(List.of(rolledBack(TX)), sorted.others());
    }

    @Test
    void narayanasOnePhaseDecisionIsAHazardOnlyWhenItSaysHazard() {
        String hazard = "14:02:11,004 WARN  [com.arjuna.ats.arjuna] (default task-3) ARJUNA012084: One-phase commit of"
                + " action 0:ffff7f000001:-5a1c2b3d:674d3a1e:51 received heuristic decision:"
                + " TwoPhaseOutcome.HEURISTIC_HAZARD";
        String mixed = hazard.replace("HEURISTIC_HAZARD", "HEURISTIC_MIXED");
        String rolledBack = hazard.replace("HEURISTIC_HAZARD", "HEURISTIC_ROLLBACK");
        OnePhaseHazards sorted = OnePhaseHazards.sort(List.of(hazard, mixed, rolledBack));
        assertEquals(1, sorted.hazards());
        assertEquals(List.of(mixed, rolledBack), sorted.others());
    }

    @Test
    void committedAndManualOutcomesAreNeverAHazard() {
        String committed = "[12/2/26, 4:00:51:872 UTC] 00000021 com.ibm.tx.jta.impl.TransactionImpl E WTRN0096W: A"
                + " heuristic condition may have occurred for transaction " + TX + ". Transaction is heuristically committed.";
        String manual = "[12/2/26, 4:00:51:872 UTC] 00000021 com.ibm.tx.jta.impl.TransactionImpl I WTRN0097W: Unknown"
                + " transaction outcome occurred for transaction " + TX + ". Transaction is awaiting administrator"
                + " intervention to determine its outcome.";
        OnePhaseHazards sorted = OnePhaseHazards.sort(List.of(hazard(TX), committed, manual));
        assertEquals(1, sorted.hazards());
        assertEquals(List.of(committed, manual), sorted.others());
    }
}
