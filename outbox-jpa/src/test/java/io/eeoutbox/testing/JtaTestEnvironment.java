package io.eeoutbox.testing;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.agroal.narayana.NarayanaTransactionIntegration;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * A small Jakarta EE stand-in for integration tests outside an application server: Narayana as the
 * JTA transaction manager, an Agroal pool whose connections enlist in JTA transactions, Hibernate
 * ORM with a JTA persistence unit, and Weld as the CDI container. The {@code EntityManager} bean
 * behaves like a container's transaction-scoped persistence context: each JTA transaction gets
 * its own, joined to it and closed when it completes. So "joins the caller's JTA transaction" is
 * tested as such.
 */
public final class JtaTestEnvironment implements AutoCloseable {

    private static volatile JtaTestEnvironment current;

    private final TransactionManager tm;
    private final TransactionSynchronizationRegistry tsr;
    private final AgroalDataSource dataSource;
    private final EntityManagerFactory emf;
    private final WeldContainer weld;

    private JtaTestEnvironment(TestDatabase.Db db, Class<?>... beanClasses) throws Exception {
        System.setProperty("ObjectStoreEnvironmentBean.objectStoreDir",
                Path.of("target", "narayana-object-store").toAbsolutePath().toString());
        System.setProperty("com.arjuna.ats.arjuna.objectstore.objectStoreDir",
                Path.of("target", "narayana-object-store").toAbsolutePath().toString());
        tm = com.arjuna.ats.jta.TransactionManager.transactionManager();
        tsr = new com.arjuna.ats.internal.jta.transaction.arjunacore.TransactionSynchronizationRegistryImple();
        dataSource = AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(pool -> pool
                        .maxSize(8)
                        .transactionIntegration(new NarayanaTransactionIntegration(tm, tsr))
                        .connectionFactoryConfiguration(cf -> {
                            cf.jdbcUrl(db.url());
                            if (db.user() != null) {
                                cf.principal(new NamePrincipal(db.user()));
                            }
                            if (db.password() != null) {
                                cf.credential(new SimplePassword(db.password()));
                            }
                            return cf;
                        })));
        Map<String, Object> props = new HashMap<>();
        props.put("jakarta.persistence.jtaDataSource", dataSource);
        emf = Persistence.createEntityManagerFactory("outbox-test", props);
        current = this;
        Weld w = new Weld().disableDiscovery().addBeanClass(Producers.class);
        for (Class<?> c : beanClasses) {
            w.addBeanClass(c);
        }
        weld = w.initialize();
    }

    /** Starts the environment on {@code db} with the given CDI bean classes (besides its producers). */
    public static JtaTestEnvironment start(TestDatabase.Db db, Class<?>... beanClasses) {
        try {
            return new JtaTestEnvironment(db, beanClasses);
        } catch (Exception e) {
            throw new IllegalStateException("could not start the JTA test environment", e);
        }
    }

    public TransactionManager transactionManager() {
        return tm;
    }

    public TransactionSynchronizationRegistry registry() {
        return tsr;
    }

    /** A CDI bean of this environment's container. */
    public <T> T bean(Class<T> type, java.lang.annotation.Annotation... qualifiers) {
        return weld.select(type, qualifiers).get();
    }

    public WeldContainer container() {
        return weld;
    }

    /** Runs {@code work} in a new JTA transaction and commits it (rolls back if it throws). */
    public <T> T inTransaction(TxWork<T> work) throws Exception {
        tm.begin();
        boolean done = false;
        try {
            T result = work.run();
            done = true;
            tm.commit();
            return result;
        } finally {
            if (!done && tm.getStatus() != Status.STATUS_NO_TRANSACTION) {
                tm.rollback();
            }
        }
    }

    /** Work in a transaction. */
    @FunctionalInterface
    public interface TxWork<T> {
        T run() throws Exception;
    }

    /** The transaction-scoped EntityManager, as the container would inject it. */
    EntityManager transactionScopedEntityManager() {
        return (EntityManager) Proxy.newProxyInstance(EntityManager.class.getClassLoader(),
                new Class<?>[] {EntityManager.class}, (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return switch (method.getName()) {
                            case "toString" -> "transaction-scoped EntityManager";
                            case "hashCode" -> System.identityHashCode(proxy);
                            case "equals" -> proxy == args[0];
                            default -> throw new UnsupportedOperationException(method.getName());
                        };
                    }
                    EntityManager em = entityManagerForTransaction();
                    try {
                        return method.invoke(em, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private EntityManager entityManagerForTransaction() {
        if (tsr.getTransactionStatus() == Status.STATUS_NO_TRANSACTION) {
            throw new jakarta.persistence.TransactionRequiredException("no JTA transaction on this thread");
        }
        Object key = emf;
        EntityManager em = (EntityManager) tsr.getResource(key);
        if (em == null) {
            EntityManager created = emf.createEntityManager();
            created.joinTransaction();
            tsr.putResource(key, created);
            tsr.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    created.close();
                }
            });
            em = created;
        }
        return em;
    }

    @Override
    public void close() {
        try {
            weld.shutdown();
        } finally {
            try {
                emf.close();
            } finally {
                dataSource.close();
                current = null;
            }
        }
    }

    /** The beans a container would provide. */
    @ApplicationScoped
    public static class Producers {

        @Produces
        EntityManager entityManager() {
            return current.transactionScopedEntityManager();
        }

        @Produces
        TransactionSynchronizationRegistry registry() {
            return current.tsr;
        }

        @Produces
        TransactionManager transactionManager() {
            return current.tm;
        }
    }
}
