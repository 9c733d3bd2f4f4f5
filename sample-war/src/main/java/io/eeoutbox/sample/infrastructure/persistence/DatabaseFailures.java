package io.eeoutbox.sample.infrastructure.persistence;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/** Tells a database outage (no connection, connection lost, pool exhausted) from other failures. */
public final class DatabaseFailures {

    private static final Set<String> UNAVAILABLE_TYPES = Set.of(
            // Hibernate: a JDBC connection problem
            "org.hibernate.exception.JDBCConnectionException",
            // the JCA pool could not hand out a connection (WildFly IronJacamar, Open Liberty)
            "jakarta.resource.ResourceException",
            "jakarta.resource.spi.ResourceAllocationException",
            "com.ibm.websphere.ce.cm.ConnectionWaitTimeoutException",
            "com.ibm.websphere.ce.cm.StaleConnectionException");

    private static final Set<String> COMMIT_TYPES = Set.of("jakarta.transaction.RollbackException",
            "jakarta.transaction.HeuristicMixedException", "jakarta.transaction.HeuristicRollbackException");

    private DatabaseFailures() {
    }

    /**
     * True when {@code failure} or one of its causes says the database cannot be reached: a
     * connection-class SQLSTATE (08xxx), PostgreSQL shutting down or starting (57P01..57P03), a refused
     * or timed-out socket, or a connection pool that has nothing to give.
     */
    public static boolean isUnavailable(Throwable failure) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Throwable> todo = new ArrayDeque<>();
        todo.add(failure);
        while (!todo.isEmpty()) {
            Throwable t = todo.poll();
            if (!seen.add(t)) {
                continue;
            }
            // causes, and suppressed exceptions: a commit cut by the database's stop is a RollbackException whose
            // connection failure is only a suppressed exception (WildFly's ARJUNA016053)
            Throwable next = next(t);
            if (next != null) {
                todo.add(next);
            }
            todo.addAll(List.of(t.getSuppressed()));
            if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
                    || t instanceof ConnectException || t instanceof NoRouteToHostException
                    || t instanceof SocketTimeoutException) {
                return true;
            }
            if (t instanceof SQLException sql && isUnavailableState(sql.getSQLState())) {
                return true;
            }
            // a pool's exception with an SQLException below it (a commit that failed) is decided by that SQLException
            if (isOneOf(t, UNAVAILABLE_TYPES) && !hasSqlExceptionBelow(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when the failure came as the transaction committed (a {@code RollbackException} or heuristic outcome of
     * the transaction manager): the database may have stored the work before the connection was cut.
     */
    public static boolean atCommit(Throwable failure) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
            if (isOneOf(t, COMMIT_TYPES)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isOneOf(Throwable t, Set<String> types) {
        for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
            if (types.contains(c.getName())) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasSqlExceptionBelow(Throwable t) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable c = t.getCause(); c != null && seen.add(c); c = c.getCause()) {
            if (c instanceof SQLException) {
                return true;
            }
        }
        return false;
    }

    static boolean isUnavailableState(String sqlState) {
        return sqlState != null && (sqlState.startsWith("08") || sqlState.equals("57P01")
                || sqlState.equals("57P02") || sqlState.equals("57P03"));
    }

    private static Throwable next(Throwable t) {
        if (t instanceof SQLException sql && sql.getNextException() != null && t.getCause() == null) {
            return sql.getNextException();
        }
        return t.getCause();
    }
}
