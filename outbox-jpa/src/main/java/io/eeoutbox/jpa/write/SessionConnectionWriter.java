package io.eeoutbox.jpa.write;

import io.eeoutbox.jpa.generated.InsertOutboxEventAtParams;
import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import java.util.logging.Logger;
import org.hibernate.Session;
import org.hibernate.jdbc.Work;

/**
 * The Hibernate route: the generated JDBC DAO ({@link OutboxEventJdbc}, the same SQL as the named query) on the
 * session's own connection, through {@code Session.doWork}. That connection is the one the persistence context
 * uses in the caller's JTA transaction, so the row commits or rolls back with it. Compared with the native query
 * it leaves out what Hibernate does around a native statement and the row does not need (docs/benchmark.md,
 * "What the write costs"): building the named query, the auto-flush check of the persistence context, the bulk
 * cleanup of the table's query space, and the parameter metadata round trip that binding a null of unknown type
 * costs on PostgreSQL (the trace context is null whenever no span is active). Hibernate turns an
 * {@code SQLException} from the work into a {@code JDBCException}, a {@link PersistenceException}.
 *
 * <p>Only loaded when Hibernate is visible; when the entity manager is not Hibernate's after all, every later
 * call takes the portable route.
 */
final class SessionConnectionWriter implements EventWriter {

    private static final Logger LOG = Logger.getLogger(SessionConnectionWriter.class.getName());

    private final EventWriter portable;
    private volatile boolean notHibernate;

    SessionConnectionWriter(EventWriter portable) {
        this.portable = portable;
    }

    @Override
    public void insert(EntityManager em, InsertOutboxEventParams row) {
        write(em, () -> portable.insert(em, row), connection -> new OutboxEventJdbc(connection).insertOutboxEvent(row));
    }

    @Override
    public void insertAt(EntityManager em, InsertOutboxEventAtParams row) {
        write(em, () -> portable.insertAt(em, row),
                connection -> new OutboxEventJdbc(connection).insertOutboxEventAt(row));
    }

    /** {@code work} on the session's connection; {@code portableWrite} when the entity manager is not Hibernate's. */
    private void write(EntityManager em, Runnable portableWrite, Work work) {
        Session session = notHibernate ? null : session(em);
        if (session == null) {
            portableWrite.run();
            return;
        }
        session.doWork(work);
    }

    private Session session(EntityManager em) {
        try {
            return em.unwrap(Session.class);
        } catch (PersistenceException | IllegalArgumentException e) {
            notHibernate = true;
            LOG.fine(() -> "ee-outbox: the entity manager is not Hibernate's (" + e.getMessage() + "); events are "
                    + "written with the JPA native query");
            return null;
        }
    }

    @Override
    public String route() {
        return notHibernate ? portable.route() : "Hibernate session connection (JDBC)";
    }
}
