package io.eeoutbox.jpa.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.Query;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Which route record() takes when the persistence provider is not Hibernate. */
class EventWritersTest {

    private static final InsertOutboxEventParams ROW =
            new InsertOutboxEventParams(UUID.randomUUID(), "order", "o-1", "order.created", "{}", null);

    /** An entity manager that is not Hibernate's: unwrap refuses, named queries are recorded. */
    private static EntityManager notHibernate(List<String> calls) {
        Query query = (Query) Proxy.newProxyInstance(Query.class.getClassLoader(), new Class<?>[] {Query.class},
                (proxy, method, args) -> {
                    calls.add("query." + method.getName());
                    return method.getName().equals("executeUpdate") ? 1 : proxy;
                });
        return (EntityManager) Proxy.newProxyInstance(EntityManager.class.getClassLoader(),
                new Class<?>[] {EntityManager.class}, (proxy, method, args) -> {
                    calls.add(method.getName());
                    return switch (method.getName()) {
                        case "unwrap" -> throw new PersistenceException("cannot unwrap " + args[0]);
                        case "createNamedQuery" -> query;
                        default -> throw new UnsupportedOperationException(method.getName());
                    };
                });
    }

    @Test
    void withoutHibernateOnTheClassPathTheNamedNativeQueryIsUsed() {
        ClassLoader noHibernate = new ClassLoader(null) {
        };
        EventWriter writer = EventWriters.detect(noHibernate);
        List<String> calls = new ArrayList<>();
        writer.insert(notHibernate(calls), ROW);

        assertThat(writer.route()).isEqualTo("JPA native query");
        assertThat(calls).contains("createNamedQuery", "query.executeUpdate").doesNotContain("unwrap");
    }

    @Test
    void anEntityManagerThatIsNotHibernatesFallsBackToTheNamedNativeQueryForGood() {
        EventWriter writer = EventWriters.detect(EventWritersTest.class.getClassLoader());
        List<String> calls = new ArrayList<>();
        writer.insert(notHibernate(calls), ROW);
        writer.insert(notHibernate(calls), ROW);

        assertThat(writer.route()).isEqualTo("JPA native query");
        assertThat(calls.stream().filter(c -> c.equals("unwrap"))).as("asked once").hasSize(1);
        assertThat(calls.stream().filter(c -> c.equals("query.executeUpdate"))).hasSize(2);
    }
}
