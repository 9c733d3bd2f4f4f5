package io.eeoutbox.sample.fault.hook;

import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.InvocationContext;
import jakarta.jms.Message;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.UUID;

/**
 * A default EJB interceptor (bound to every bean of the WAR by the suite's {@code WEB-INF/ejb-jar.xml})
 * that, around a message-driven bean's {@code onMessage}, records the delivered event id in
 * {@code fault_delivery_log} in the bean's own JTA transaction: a row exists exactly for each delivery
 * whose processing committed. One row per event is the event applied; every further row is a
 * duplicate that reached the consumer and was absorbed by its inbox.
 */
public class DeliveryLog {

    @PersistenceContext
    private EntityManager em;

    @AroundInvoke
    public Object record(InvocationContext ctx) throws Exception {
        Object result = ctx.proceed();
        Object[] args = ctx.getParameters();
        if ("onMessage".equals(ctx.getMethod().getName()) && args != null && args.length == 1
                && args[0] instanceof Message message) {
            String id = message.getStringProperty("outbox_event_id");
            if (id != null) {
                em.createNativeQuery("INSERT INTO fault_delivery_log (event_id, server, redelivered)"
                                + " VALUES (CAST(?1 AS uuid), ?2, ?3)")
                        .setParameter(1, UUID.fromString(id).toString())
                        .setParameter(2, System.getProperty("outbox.relay.name", "unnamed"))
                        .setParameter(3, message.getJMSRedelivered())
                        .executeUpdate();
            }
        }
        return result;
    }
}
