package io.eeoutbox.sample.infrastructure.persistence;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/**
 * Exposes the persistence unit's container-managed EntityManager as a CDI bean: ee-outbox's
 * {@code OutboxService} and {@code Inbox} write through it, so their rows join the caller's JTA
 * transaction. (An application with several EntityManager beans qualifies this one
 * {@code @io.eeoutbox.jpa.Outbox}.)
 */
@ApplicationScoped
public class OutboxPersistence {

    @Produces
    @PersistenceContext(unitName = "sample")
    private EntityManager entityManager;
}
