package io.eeoutbox.jpa;

import io.eeoutbox.NoActiveTransactionException;
import io.eeoutbox.OutboxException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Finds what ee-outbox writes through: the application's {@code EntityManager} bean (qualified
 * {@link Outbox} when there is one, the default one otherwise) and the container's
 * {@code TransactionSynchronizationRegistry} (a CDI bean when one is provided, otherwise the
 * standard JNDI name {@value #TSR_JNDI}).
 */
@ApplicationScoped
public class JtaResources {

    static final String TSR_JNDI = "java:comp/TransactionSynchronizationRegistry";

    @Inject
    Instance<EntityManager> entityManagers;

    @Inject
    Instance<TransactionSynchronizationRegistry> registries;

    private volatile TransactionSynchronizationRegistry registry;
    private volatile EntityManager entityManager;

    /**
     * The EntityManager that joins the caller's transaction. A container-managed, transaction-scoped
     * EntityManager is a thread-safe proxy, so it is resolved once and kept.
     */
    public EntityManager entityManager() {
        EntityManager result = entityManager;
        if (result == null) {
            result = resolveEntityManager();
            entityManager = result;
        }
        return result;
    }

    private EntityManager resolveEntityManager() {
        Instance<EntityManager> qualified = entityManagers.select(Outbox.Literal.INSTANCE);
        if (qualified.isResolvable()) {
            return qualified.get();
        }
        if (entityManagers.isResolvable()) {
            return entityManagers.get();
        }
        String found = entityManagers.isAmbiguous() ? "several EntityManager beans and none qualified @Outbox"
                : "no EntityManager bean";
        throw new OutboxException("ee-outbox found " + found + ". Expose the persistence context that holds the "
                + "outbox tables as a CDI bean, for example: @Produces @Outbox @PersistenceContext(unitName = \"...\") "
                + "EntityManager em;");
    }

    /** The registry of the container's transaction manager. */
    public TransactionSynchronizationRegistry registry() {
        TransactionSynchronizationRegistry result = registry;
        if (result == null) {
            if (registries.isResolvable()) {
                result = registries.get();
            } else {
                try {
                    result = (TransactionSynchronizationRegistry) new InitialContext().lookup(TSR_JNDI);
                } catch (NamingException e) {
                    throw new OutboxException("ee-outbox needs a JTA TransactionSynchronizationRegistry and found none at "
                            + TSR_JNDI + " (is this running in a Jakarta EE container?)", e);
                }
            }
            registry = result;
        }
        return result;
    }

    /**
     * Checks that a JTA transaction is active on this thread.
     *
     * @param what the operation, for the message
     * @return the registry, for the caller's further use
     */
    public TransactionSynchronizationRegistry requireActiveTransaction(String what) {
        TransactionSynchronizationRegistry tsr = registry();
        int status = tsr.getTransactionStatus();
        if (status == Status.STATUS_ACTIVE) {
            return tsr;
        }
        if (status == Status.STATUS_NO_TRANSACTION) {
            throw new NoActiveTransactionException(what + " needs an active JTA transaction and there is none on this "
                    + "thread; nothing was written. Call it from a transactional EJB or @Transactional CDI method, "
                    + "or inside a UserTransaction.");
        }
        if (status == Status.STATUS_MARKED_ROLLBACK) {
            throw new OutboxException(what + " was called in a transaction already marked for rollback; nothing was written");
        }
        throw new NoActiveTransactionException(what + " needs an active JTA transaction; the transaction on this thread "
                + "is " + statusName(status) + "; nothing was written");
    }

    static String statusName(int status) {
        return switch (status) {
            case Status.STATUS_ACTIVE -> "active";
            case Status.STATUS_MARKED_ROLLBACK -> "marked for rollback";
            case Status.STATUS_PREPARED -> "prepared";
            case Status.STATUS_COMMITTED -> "committed";
            case Status.STATUS_ROLLEDBACK -> "rolled back";
            case Status.STATUS_UNKNOWN -> "in an unknown state";
            case Status.STATUS_NO_TRANSACTION -> "absent";
            case Status.STATUS_PREPARING -> "preparing";
            case Status.STATUS_COMMITTING -> "committing";
            case Status.STATUS_ROLLING_BACK -> "rolling back";
            default -> "in state " + status;
        };
    }
}
