package io.eeoutbox.ops.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Redeploys leave no pooled connection listening (issue 17, item 4): the relay LISTENs on a connection of
 * the server's relay pool and, when it stops, gives it back after UNLISTEN. 20 deployments and undeployments
 * of the WAR while events are written, then: no backend of the test database sits idle with LISTEN as its
 * last statement (a pooled connection still listening), and one more deployment still gets its connections
 * from the pool and publishes.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class RedeployIT {

    private static final String DEPLOYMENT = "redeploy";
    private static final int REDEPLOYS = 20;
    /** Idle backends whose last statement was a LISTEN: pooled connections that still listen. */
    private static final String LISTENING_IDLE = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            + " AND state = 'idle' AND query ILIKE 'LISTEN %' AND pid <> pg_backend_pid()";

    @Deployment(name = DEPLOYMENT, managed = false, testable = false)
    static WebArchive deployment() {
        return OpsDeployment.war();
    }

    @ArquillianResource
    private Deployer deployer;

    @Test
    void twentyRedeploysUnderLoadLeaveNoPooledConnectionListening() throws Exception {
        ExecutorService producer = Executors.newSingleThreadExecutor();
        AtomicBoolean producing = new AtomicBoolean(true);
        AtomicLong written = new AtomicLong();
        Future<?> load = producer.submit(() -> {
            while (producing.get()) {
                OutboxDb.recordEvent("ops.redeploy-load");
                written.incrementAndGet();
                Thread.sleep(20);
            }
            return null;
        });
        try {
            for (int i = 1; i <= REDEPLOYS; i++) {
                deployer.deploy(DEPLOYMENT);
                UUID marker = OutboxDb.recordEvent("ops.redeploy-" + i);
                Eventually.until(() -> OutboxDb.processedAt(marker), Optional::isPresent, "deployment " + i + " publishing");
                deployer.undeploy(DEPLOYMENT);
            }
        } finally {
            producing.set(false);
            load.get(30, TimeUnit.SECONDS);
            producer.shutdown();
        }
        long listening = OutboxDb.count(LISTENING_IDLE);
        RelayAdminJmxIT.report("after " + REDEPLOYS + " redeploys (" + written.get() + " events written meanwhile): "
                + listening + " idle backends whose last statement was LISTEN");
        assertEquals(0, listening, "pooled connections still listening after " + REDEPLOYS + " redeploys");

        deployer.deploy(DEPLOYMENT);
        try {
            UUID last = OutboxDb.recordEvent("ops.redeploy-last");
            Eventually.until(() -> OutboxDb.processedAt(last), Optional::isPresent,
                    "one more deployment publishing: the pool is not exhausted");
            Eventually.until(() -> OutboxDb.count("SELECT count(*) FROM outbox_events WHERE event_type = 'ops.redeploy-load'"
                    + " AND processed_at IS NULL"), n -> n == 0, "the events written during the redeploys all published");
        } finally {
            deployer.undeploy(DEPLOYMENT);
        }
    }
}
