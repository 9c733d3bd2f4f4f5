package io.eeoutbox.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.relay.MutableClock;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.spi.Publisher;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The MBean ({@link JmxAdapter} over {@link RelayOperations}) over a relay that is built but not started (no drains), and its registration. */
class JmxAdapterTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
    private final TinyStore store = new TinyStore();
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    private final MBeanServer server = MBeanServerFactory.newMBeanServer();

    @AfterEach
    void tearDown() {
        executor.shutdownNow();
    }

    private OutboxRelay relay(String name) {
        Publisher publisher = message -> { };
        return OutboxRelay.builder()
                .config(RelayConfig.builder().set(RelaySettings.NAME, name).set(RelaySettings.NOTIFY_ENABLED, false).set(RelaySettings.POLL_INTERVAL, Duration.ofHours(1)).build())
                .store(store).executor(executor).clock(clock).publisher(publisher).build();
    }

    private JmxAdapter mbean(OutboxRelay relay) {
        return new JmxAdapter(new RelayOperations(relay, clock), clock);
    }

    @Test
    void attributesShowTheOutboxAndTheRelay() {
        store.insert("order", "o1", "order.created", "{}", clock.instant().minusSeconds(90));
        store.insert("order", "o2", "order.created", "{}", clock.instant().minusSeconds(10));
        UUID dead = store.insert("order", "o3", "order.created", "{}", clock.instant());
        store.makeDead(dead, clock.instant());
        JmxAdapter admin = mbean(relay("orders"));

        assertThat(admin.getName()).isEqualTo("orders");
        assertThat(admin.isRunning()).isFalse();
        assertThat(admin.getPending()).isEqualTo(2);
        assertThat(admin.getDeadLetters()).isEqualTo(1);
        assertThat(admin.getOldestPendingAgeSeconds()).isEqualTo(90);
        assertThat(admin.getLastBatchDurationMillis()).isEqualTo(-1);
        assertThat(admin.getLastError()).isNull();
        assertThat(admin.getPollInterval()).isEqualTo("PT1H");
    }

    @Test
    void retryOperationsMakeDeadLettersDueAgain() {
        UUID a = store.insert("order", "o1", "order.created", "{}", Instant.parse("2026-02-01T10:00:00Z"));
        UUID b = store.insert("invoice", "i1", "invoice.sent", "{}", Instant.parse("2026-02-02T10:00:00Z"));
        UUID c = store.insert("order", "o2", "order.created", "{}", Instant.parse("2026-02-03T10:00:00Z"));
        for (UUID id : new UUID[] {a, b, c}) {
            store.makeDead(id, clock.instant());
        }
        JmxAdapter admin = mbean(relay("orders"));
        assertThat(admin.getDeadLetters()).isEqualTo(3);

        assertThat(admin.retryDeadLetter(b.toString())).isTrue();
        assertThat(admin.retryDeadLetter(b.toString())).isFalse(); // no dead letter any more
        assertThat(admin.retryDeadLetters("order.created", "", "2026-02-03", null)).isEqualTo(1); // c only
        assertThat(admin.retryDeadLetters(" ", null, "", "2026-02-02T00:00:00Z")).isEqualTo(1);  // a
        assertThat(admin.getDeadLetters()).isZero();
        assertThat(admin.getPending()).isEqualTo(3);
    }

    @Test
    void badArgumentsAreRefusedWithAMessage() {
        JmxAdapter admin = mbean(relay("orders"));
        assertThatThrownBy(() -> admin.retryDeadLetter("nope"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("UUID").hasMessageContaining("nope");
        assertThatThrownBy(() -> admin.retryDeadLetter(""))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> admin.retryDeadLetters(null, null, "yesterday", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("createdFrom");
        assertThatThrownBy(() -> admin.retryDeadLetters(null, null, "2026-03-02", "2026-03-01"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("before");
        assertThatThrownBy(() -> admin.purgeProcessedOlderThan(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aDatabaseFailureReachesTheClientAsAPlainIllegalStateException() {
        JmxAdapter admin = mbean(relay("orders"));
        store.failAll = true;
        assertThatThrownBy(admin::getPending)
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessageContaining("connection refused")
                .hasNoCause();
        assertThatThrownBy(() -> admin.retryDeadLetter(UUID.randomUUID().toString()))
                .isExactlyInstanceOf(IllegalStateException.class).hasNoCause();
    }

    @Test
    void refreshedGaugesAreTheRefreshersLastValuesNeverAQuery() {
        RelayOperations operations = new RelayOperations(relay("orders"), clock);
        GaugeRefresher refresher = new GaugeRefresher("orders", operations::stats, clock, Duration.ofSeconds(15),
                new GaugeRefresher.Observer() {
                    @Override
                    public void refreshed(Instant at) {
                    }

                    @Override
                    public void refreshFailed(Throwable cause, Instant at) {
                    }
                });
        JmxAdapter admin = new JmxAdapter(operations, clock, refresher::latest);
        assertThat(admin.getRefreshedPending()).as("before the first refresh").isEqualTo(-1);
        assertThat(admin.getGaugesRefreshedAt()).isNull();

        store.insert("order", "o1", "order.created", "{}", clock.instant().minusSeconds(90));
        refresher.refreshNow();
        store.insert("order", "o2", "order.created", "{}", clock.instant());
        store.failAll = true; // the database is gone: the refreshed values are still served
        assertThat(admin.getRefreshedPending()).isEqualTo(1);
        assertThat(admin.getRefreshedDeadLetters()).isZero();
        assertThat(admin.getRefreshedOldestPendingAgeSeconds()).isEqualTo(90);
        assertThat(admin.getGaugesRefreshedAt()).isEqualTo("2026-03-01T12:00:00Z");
        assertThat(new JmxAdapter(operations, clock).getRefreshedPending()).as("no refresher").isEqualTo(-1);
    }

    @Test
    void stateApplicationSettingsAndTheIsoPurgesArgument() {
        OutboxRelay relay = relay("orders");
        JmxAdapter admin = new JmxAdapter(new RelayOperations(relay, clock), clock, () -> GaugeRefresher.Gauges.UNKNOWN,
                "shop");
        assertThat(admin.getState()).isEqualTo("stopped");
        assertThat(admin.getApplication()).isEqualTo("shop");
        assertThat(admin.getSettings()).containsEntry("outbox.relay.name", "orders").containsKey("outbox.relay.batch-size");
        assertThatThrownBy(() -> admin.purge("a week"))
                .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining("olderThan");
        assertThat(mbean(relay).getApplication()).isNull();
    }

    @Test
    void registeredAsAnMxBeanUnderTheRelaysName() throws Exception {
        OutboxRelay relay = relay("orders");
        ObjectName name = RelayMBeans.register(server, mbean(relay));
        assertThat(name).isEqualTo(new ObjectName("io.eeoutbox:type=OutboxRelay,name=orders"));
        assertThat(server.isInstanceOf(name, RelayAdminMXBean.class.getName())).isTrue();
        assertThat(server.getAttribute(name, "Pending")).isEqualTo(0L);

        RelayAdminMXBean proxy = JMX.newMXBeanProxy(server, name, RelayAdminMXBean.class);
        proxy.pause();
        assertThat(relay.isPaused()).isTrue();
        assertThat(server.getAttribute(name, "Paused")).isEqualTo(true);
        proxy.resume();
        assertThat(relay.isPaused()).isFalse();

        RelayMBeans.unregister(server, name);
        assertThat(server.isRegistered(name)).isFalse();
        RelayMBeans.unregister(server, name); // quiet when gone
    }

    @Test
    void aStaleMBeanOfAStoppedRelayIsReplacedARunningOneIsNot() throws Exception {
        OutboxRelay stale = relay("orders");   // never started: Running=false, as after an undeploy
        RelayMBeans.register(server, mbean(stale));

        OutboxRelay next = relay("orders");
        ObjectName name = RelayMBeans.register(server, mbean(next));
        assertThat(name).isNotNull();

        OutboxRelay running = relay("billing");
        running.start();
        try {
            assertThat(RelayMBeans.register(server, mbean(running))).isNotNull();
            assertThat(RelayMBeans.register(server, mbean(relay("billing")))).isNull();
        } finally {
            running.stop(Duration.ofSeconds(5));
        }
    }

    @Test
    void namesThatNeedQuotingAreQuoted() throws Exception {
        assertThat(RelayMBeans.objectName("host-1234")).isEqualTo(new ObjectName("io.eeoutbox:type=OutboxRelay,name=host-1234"));
        ObjectName odd = RelayMBeans.objectName("a,b=c");
        assertThat(odd.getKeyProperty("name")).isEqualTo("\"a,b=c\"");
        assertThat(ManagementFactory.getPlatformMBeanServer()).isNotNull();
    }
}
