package io.eeoutbox.jpa.write;

import io.eeoutbox.jpa.generated.InsertOutboxEventAtParams;
import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.jpa.generated.OutboxEventQueries;
import jakarta.persistence.EntityManager;

/** The portable route: the generated JPA DAO's named native query, for any persistence provider. */
final class NativeQueryWriter implements EventWriter {

    @Override
    public void insert(EntityManager em, InsertOutboxEventParams row) {
        new OutboxEventQueries(em).insertOutboxEvent(row);
    }

    @Override
    public void insertAt(EntityManager em, InsertOutboxEventAtParams row) {
        new OutboxEventQueries(em).insertOutboxEventAt(row);
    }

    @Override
    public String route() {
        return "JPA native query";
    }
}
