package io.eeoutbox.jpa.write;

import io.eeoutbox.jpa.generated.InsertOutboxEventAtParams;
import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;

/**
 * Writes one outbox row with the generated {@code InsertOutboxEvent} statement (sql/queries/outbox_events.sql),
 * in the transaction the given {@code EntityManager} takes part in. {@link #detect()} picks the route.
 */
public interface EventWriter {

    /**
     * Inserts the row.
     *
     * @throws PersistenceException when the database refuses it (the caller marks its transaction rollback-only)
     */
    void insert(EntityManager em, InsertOutboxEventParams row);

    /** Inserts a delayed event's row with {@code InsertOutboxEventAt} (schema V14), by the same route. */
    void insertAt(EntityManager em, InsertOutboxEventAtParams row);

    /** A short name of the route, for logs and tests. */
    String route();

    /**
     * The route for this class loader's persistence provider: on Hibernate the generated JDBC statement on the
     * session's own connection ({@code Session.doWork}), otherwise (and whenever the entity manager turns out not to
     * be Hibernate's) the generated JPA named native query.
     */
    static EventWriter detect() {
        return EventWriters.detect(EventWriter.class.getClassLoader());
    }
}
