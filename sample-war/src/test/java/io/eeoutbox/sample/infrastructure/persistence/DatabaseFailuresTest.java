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
        Exception rollback = new Exception("ARJUNA016053: Could not commit transaction.");
        Exception local = new Exception("IJ001156: Could not commit local transaction",
                new IllegalStateException("SQLException", new SQLException("terminating connection", "57P01")));
        rollback.addSuppressed(local);
        assertTrue(DatabaseFailures.isUnavailable(new EJBException(rollback)));
        Exception other = new Exception("could not commit");
        other.addSuppressed(new SQLException("duplicate key", "23505"));
        assertFalse(DatabaseFailures.isUnavailable(new EJBException(other)));
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
