package io.eeoutbox.sample.fault.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeuristicLinesTest {

    // logged by WildFly's recovery after a kill, for a transaction it then finished (fault suite, 2026-12-02)
    private static final String RECORD_DUMP = "2026-12-02 08:17:11,116 WARN  [com.arjuna.ats.jta] (Periodic Recovery)"
            + " ARJUNA016037: Could not find new XAResource to use for recovering non-serializable XAResource"
            + " XAResourceRecord < resource:null, txid:< formatId=131077, gtrid_length=34, bqual_length=36,"
            + " tx_uid=0:ffff7f000001:-7c8318a4:6b0fd3a6:3e52, node_name=wf2500, eis_name=java:/JmsXA >,"
            + " heuristic: TwoPhaseOutcome.FINISH_OK, product: ActiveMQ Artemis/2.44.0, jndiName: java:/JmsXA >";

    @Test
    void aResourceRecordWithAnOrdinaryOutcomeIsNotHeuristic() {
        assertFalse(HeuristicLines.isHeuristic(RECORD_DUMP));
        assertFalse(HeuristicLines.isHeuristic("[12/2/26, 8:21:23:174 UTC] 00000045 com.ibm.tx.jta.impl.RecoveryManager"
                + " I WTRN0135I: Transaction service recovering no transactions."));
    }

    @Test
    void aResourceRecordWithAHeuristicOutcomeIs() {
        assertTrue(HeuristicLines.isHeuristic(RECORD_DUMP.replace("FINISH_OK", "HEURISTIC_ROLLBACK")));
    }

    @Test
    void anyNarayanaLineAboutAHeuristicIsWhateverItsNumber() {
        assertTrue(HeuristicLines.isHeuristic("WARN  [com.arjuna.ats.arjuna] (Periodic Recovery) ARJUNA012999:"
                + " Recovery of action 0:ffff7f000001:1 found a heuristic outcome"));
        assertTrue(HeuristicLines.isHeuristic("WARN  [com.arjuna.ats.arjuna] ARJUNA012084: One-phase commit of action"
                + " 0:ffff7f000001:51 received heuristic decision: TwoPhaseOutcome.HEURISTIC_HAZARD"));
        assertTrue(HeuristicLines.isHeuristic("INFO  [com.arjuna.ats.arjuna] ARJUNA012345: action 0:1 has 1 heuristic"
                + " participant(s)!"));
    }

    @Test
    void xaCodesAndExceptionsCountOnTheTransactionManagersLinesOnly() {
        assertTrue(HeuristicLines.isHeuristic("WARN  [com.arjuna.ats.jta] ARJUNA016036: commit on < formatId=131077 >"
                + " failed with exception $XAException.XA_HEURHAZ"));
        assertTrue(HeuristicLines.isHeuristic("[12/2/26] 00000021 com.ibm.tx.jta.impl.RegisteredResources E WTRN0047E:"
                + " An exception was caught: jakarta.transaction.HeuristicMixedException"));
        // the application's own stack trace of a commit whose hazard the transaction manager logged already
        assertFalse(HeuristicLines.isHeuristic("Caused by: jakarta.transaction.HeuristicMixedException"));
        assertFalse(HeuristicLines.isHeuristic("ERROR [io.undertow.request] commit failed: XAException.XA_HEURHAZ"));
    }

    @Test
    void libertysMessagesAre() {
        assertTrue(HeuristicLines.isHeuristic("[12/2/26, 4:00:51:872 UTC] 00000021 com.ibm.tx.jta.impl.TransactionImpl"
                + " E WTRN0102W: A heuristic condition may have occurred for transaction 00A1."));
        assertFalse(HeuristicLines.isHeuristic("INFO  [org.hibernate] a comment on heuristics in a non-Narayana line"));
    }

    @Test
    void theLogsOlderFilesAreReadOldestFirst(@TempDir Path dir) throws Exception {
        Path current = dir.resolve("messages.log");
        Path older = dir.resolve("messages_26.12.02_08.10.21.0.log");
        Path oldest = dir.resolve("messages_26.12.02_08.09.01.0.log");
        Files.writeString(oldest, "a WTRN0075W first\nnothing\n");
        Files.writeString(older, "a WTRN0102W second\n");
        Files.writeString(current, "nothing here\nARJUNA012084 ... TwoPhaseOutcome.HEURISTIC_MIXED third\n");
        Files.writeString(dir.resolve("console.log"), "WTRN0075W not the messages log\n");
        Files.setLastModifiedTime(oldest, FileTime.from(Instant.parse("2026-12-02T08:09:59Z")));
        Files.setLastModifiedTime(older, FileTime.from(Instant.parse("2026-12-02T08:10:20Z")));
        assertEquals(List.of("a WTRN0075W first", "a WTRN0102W second", "ARJUNA012084 ... TwoPhaseOutcome.HEURISTIC_MIXED third"), HeuristicLines.read(current));
    }

    @Test
    void noLogYetIsNoLine(@TempDir Path dir) throws Exception {
        assertEquals(List.of(), HeuristicLines.read(dir.resolve("server.log")));
    }
}
