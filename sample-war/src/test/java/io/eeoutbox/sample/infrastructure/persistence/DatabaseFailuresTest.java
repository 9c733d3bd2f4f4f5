package io.eeoutbox.sample.infrastructure.persistence;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ejb.EJBException;
import jakarta.persistence.PersistenceException;
import java.net.ConnectException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class DatabaseFailuresTest {

    @Test
    void connectionFailuresDeepInTheChainCount() {
        SQLException refused = new SQLException("Connection to 127.0.0.1:5432 refused", "08001", new ConnectException("refused"));
        assertTrue(DatabaseFailures.isUnavailable(new EJBException(new PersistenceException("could not open", refused))));
        assertTrue(DatabaseFailures.isUnavailable(new EJBException(new SQLException("terminating connection", "57P01"))));
        assertTrue(DatabaseFailures.isUnavailable(new RuntimeException(new jakarta.resource.ResourceException("IJ000453"))));
    }

    @Test
    void aCommitCutByTheDatabasesStopCountsThoughItsCauseIsOnlySuppressed() {
        // WildFly: EJBTransactionRolledbackException <- RollbackException (ARJUNA016053), whose connection failure
        // hangs as a suppressed LocalXAException <- ResourceException <- PSQLException 57P01
        Exception rollback = new jakarta.transaction.RollbackException("ARJUNA016053: Could not commit transaction.");
        rollback.addSuppressed(local(new SQLException("terminating connection", "57P01")));
        EJBException cut = new EJBException(rollback);
        assertTrue(DatabaseFailures.isUnavailable(cut));
        assertTrue(DatabaseFailures.atCommit(cut), "the work may have been stored");

        // a commit refused for a reason of its own (a constraint checked at commit) is no outage
        Exception refused = new jakarta.transaction.RollbackException("ARJUNA016053: Could not commit transaction.");
        refused.addSuppressed(local(new SQLException("duplicate key", "23505")));
        assertFalse(DatabaseFailures.isUnavailable(new EJBException(refused)));
        assertFalse(DatabaseFailures.atCommit(new EJBException(new SQLException("terminating connection", "57P01"))));
    }

    /** IronJacamar's failed local commit: LocalXAException <- ResourceException <- the driver's SQLException. */
    private static Exception local(SQLException cause) {
        javax.transaction.xa.XAException xa = new javax.transaction.xa.XAException("IJ001156: Could not commit local transaction");
        xa.initCause(new jakarta.resource.ResourceException("SQLException", cause));
        return xa;
    }

    @Test
    void otherFailuresDoNot() {
        assertFalse(DatabaseFailures.isUnavailable(new EJBException(new SQLException("duplicate key", "23505"))));
        assertFalse(DatabaseFailures.isUnavailable(new EJBException(new IllegalStateException("bug"))));
        SQLException loop = new SQLException("x", "42000");
        loop.setNextException(loop);
        assertFalse(DatabaseFailures.isUnavailable(loop));
    }
}
