package io.eeoutbox.sample.application;

import io.eeoutbox.sample.domain.ProbeItem;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.Optional;
import java.util.UUID;

/**
 * Writes probe rows through JPA in a container-managed transaction (REQUIRED): the same shape as the
 * real application's services, which write their own rows and the outbox row in one transaction.
 */
@Stateless
public class ProbeService {

    @PersistenceContext(unitName = "sample")
    private EntityManager em;

    public ProbeItem record(String label, ProbeItem.Source source) {
        ProbeItem item = new ProbeItem(UUID.randomUUID(), label, source);
        em.persist(item);
        return item;
    }

    /** Inserts and flushes a row, then fails: nothing may stay in the database. */
    public void recordThenFail(String label) {
        em.persist(new ProbeItem(UUID.randomUUID(), label, ProbeItem.Source.REST));
        em.flush();
        throw new ProbeFailure("failing on purpose after inserting '" + label + "'");
    }

    public Optional<ProbeItem> find(UUID id) {
        return Optional.ofNullable(em.find(ProbeItem.class, id));
    }
}
