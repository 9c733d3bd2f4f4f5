package io.eeoutbox.relay.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.jpa.Inbox;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.ee.ResourceNames;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RelayConfigTest {

    @Test
    void defaults() {
        RelayConfig c = RelayConfig.defaults();
        ResourceNames names = ResourceNames.load(key -> java.util.Optional.empty());
        assertThat(c.enabled()).isTrue();
        assertThat(c.batchSize()).isEqualTo(500);
        assertThat(c.batchMaxBytes()).isEqualTo(4 * 1024 * 1024);
        assertThat(c.pollInterval()).isEmpty();
        assertThat(c.pollInterval(true)).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.pollInterval(false)).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.busyPollInterval()).isEqualTo(Duration.ofMillis(5));
        assertThat(c.maxAttempts()).isEqualTo(10);
        assertThat(c.backoffInitial()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.backoffFactor()).isEqualTo(2.0);
        assertThat(c.backoffMax()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.backoffJitter()).isEqualTo(0.2);
        assertThat(c.lease()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.ordered()).isFalse();
        assertThat(c.notifyEnabled()).isTrue();
        assertThat(c.notifyChannel()).isEqualTo("outbox_event");
        assertThat(c.completion()).isEqualTo(CompletionMode.MARK);
        assertThat(c.retention()).isEqualTo(Duration.ofDays(7));
        assertThat(c.cleanupInterval()).isEqualTo(Duration.ofHours(1));
        assertThat(c.cleanupBatchSize()).isEqualTo(1000);
        assertThat(c.inboxRetention()).isEqualTo(io.eeoutbox.relay.config.InboxRetention.of(Duration.ofDays(30)));
        assertThat(c.claimRescanInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.synchronousCommit()).isEqualTo("off");
        assertThat(names.dataSource()).isEqualTo("java:app/jdbc/OutboxRelay");
        assertThat(names.executor()).isEqualTo("java:comp/DefaultManagedScheduledExecutorService");
        assertThat(names.jmsConnectionFactory()).isEqualTo("java:comp/DefaultJMSConnectionFactory");
        assertThat(names.jmsDestination()).isEqualTo("java:app/jms/OutboxEvents");
        assertThat(c.name()).isNotBlank().contains(String.valueOf(ProcessHandle.current().pid()));
    }

    @Test
    void loadsEveryKey() {
        var lookup = ConfigLookups.of(Map.ofEntries(
                Map.entry("outbox.relay.enabled", "false"),
                Map.entry("outbox.relay.name", "relay-a"),
                Map.entry("outbox.relay.batch-size", "250"),
                Map.entry("outbox.relay.batch-max-bytes", "65536"),
                Map.entry("outbox.relay.poll-interval", "PT30S"),
                Map.entry("outbox.relay.busy-poll-interval", "PT0S"),
                Map.entry("outbox.relay.max-attempts", "3"),
                Map.entry("outbox.relay.backoff.initial", "PT0.5S"),
                Map.entry("outbox.relay.backoff.factor", "3"),
                Map.entry("outbox.relay.backoff.max", "PT1M"),
                Map.entry("outbox.relay.backoff.jitter", "0"),
                Map.entry("outbox.relay.lease", "PT2M"),
                Map.entry("outbox.relay.ordered", "TRUE"),
                Map.entry("outbox.relay.notify.enabled", "false"),
                Map.entry("outbox.relay.notify.channel", "orders_outbox"),
                Map.entry("outbox.relay.notify.jdbc-url", "jdbc:postgresql://db/app"),
                Map.entry("outbox.relay.notify.user", "relay"),
                Map.entry("outbox.relay.notify.password", "s3cret"),
                Map.entry("outbox.relay.completion", "delete"),
                Map.entry("outbox.relay.retention", "P1D"),
                Map.entry("outbox.relay.cleanup.interval", "PT10M"),
                Map.entry("outbox.relay.cleanup.batch-size", "50"),
                Map.entry("outbox.relay.synchronous-commit", "Remote_Write"),
                Map.entry("outbox.relay.datasource", "java:jboss/datasources/Relay"),
                Map.entry("outbox.relay.executor", "java:app/Exec"),
                Map.entry("outbox.relay.thread-factory", "java:app/Threads"),
                Map.entry("outbox.relay.jms.connection-factory", "java:/JmsXA"),
                Map.entry("outbox.relay.jms.destination", "java:/queue/orders")));
        RelayConfig c = RelayConfig.load(lookup);
        ResourceNames names = ResourceNames.load(lookup);
        assertThat(c.enabled()).isFalse();
        assertThat(c.name()).isEqualTo("relay-a");
        assertThat(c.batchSize()).isEqualTo(250);
        assertThat(c.batchMaxBytes()).isEqualTo(65536);
        assertThat(c.pollInterval(true)).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.pollInterval(false)).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.busyPollInterval()).isZero();
        assertThat(c.maxAttempts()).isEqualTo(3);
        assertThat(c.backoffInitial()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.backoffFactor()).isEqualTo(3.0);
        assertThat(c.backoffMax()).isEqualTo(Duration.ofMinutes(1));
        assertThat(c.backoffJitter()).isZero();
        assertThat(c.lease()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.ordered()).isTrue();
        assertThat(c.notifyEnabled()).isFalse();
        assertThat(c.notifyChannel()).isEqualTo("orders_outbox");
        assertThat(c.notifyJdbcUrl()).contains("jdbc:postgresql://db/app");
        assertThat(c.notifyUser()).contains("relay");
        assertThat(c.notifyPassword()).contains("s3cret");
        assertThat(c.completion()).isEqualTo(CompletionMode.DELETE);
        assertThat(c.retention()).isEqualTo(Duration.ofDays(1));
        assertThat(c.cleanupInterval()).isEqualTo(Duration.ofMinutes(10));
        assertThat(c.cleanupBatchSize()).isEqualTo(50);
        assertThat(c.synchronousCommit()).isEqualTo("remote_write");
        assertThat(names.dataSource()).isEqualTo("java:jboss/datasources/Relay");
        assertThat(names.executor()).isEqualTo("java:app/Exec");
        assertThat(names.threadFactory()).isEqualTo("java:app/Threads");
        assertThat(names.jmsConnectionFactory()).isEqualTo("java:/JmsXA");
        assertThat(names.jmsDestination()).isEqualTo("java:/queue/orders");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "outbox.relay.batch-size|0|a whole number from 1 to 10000",
        "outbox.relay.batch-size|10001|a whole number from 1 to 10000",
        "outbox.relay.batch-size|many|a whole number",
        "outbox.relay.batch-max-bytes|1023|a whole number from 1024 to 1073741824",
        "outbox.relay.batch-max-bytes|4MiB|a whole number",
        "outbox.relay.poll-interval|5s|an ISO-8601 duration from",
        "outbox.relay.poll-interval|PT0S|an ISO-8601 duration from PT0.01S to PT1H",
        "outbox.relay.busy-poll-interval|PT11S|an ISO-8601 duration from PT0S to PT10S",
        "outbox.relay.busy-poll-interval|-PT0.01S|an ISO-8601 duration from PT0S to PT10S",
        "outbox.relay.max-attempts|0|a whole number from 1 to 1000",
        "outbox.relay.backoff.initial|-PT1S|an ISO-8601 duration from",
        "outbox.relay.backoff.factor|0.5|a decimal number from 1.0 to 100.0",
        "outbox.relay.backoff.factor|NaN|a decimal number",
        "outbox.relay.backoff.jitter|1.5|a decimal number from 0.0 to 1.0",
        "outbox.relay.lease|PT0.5S|an ISO-8601 duration from PT1S to P1D",
        "outbox.relay.ordered|yes|true or false",
        "outbox.relay.notify.enabled|on|true or false",
        "outbox.relay.notify.channel|Outbox-Events|a PostgreSQL identifier",
        "outbox.relay.notify.channel|outbox;drop table x|a PostgreSQL identifier",
        "outbox.relay.notify.jdbc-url|jdbc:mysql://x/y|a PostgreSQL JDBC URL",
        "outbox.relay.completion|archive|mark or delete",
        "outbox.relay.retention|-P1D|an ISO-8601 duration from PT0S",
        "outbox.relay.cleanup.batch-size|0|a whole number from 1 to 100000",
        "outbox.relay.inbox.retention|PT59M|an ISO-8601 duration from PT1H to P36500D",
        "outbox.relay.inbox.retention|30 days|an ISO-8601 duration from",
        "outbox.relay.claim.rescan-interval|PT2H|an ISO-8601 duration from PT0S to PT1H",
        "outbox.relay.claim.rescan-interval|-PT1S|an ISO-8601 duration from PT0S to PT1H",
        "outbox.relay.synchronous-commit|remote|on, off, local, remote_write or remote_apply",
        "outbox.relay.synchronous-commit|async|on, off, local, remote_write or remote_apply",
        "outbox.relay.mode|debezium|relay or cdc",
        "outbox.relay.mode|CDC-only|relay or cdc",
        "outbox.relay.cdc.retention|-PT1S|an ISO-8601 duration from PT0S to P36500D",
        "outbox.relay.cdc.retention|1h|an ISO-8601 duration from",
        "outbox.relay.cdc.slot|EE_Outbox|a PostgreSQL identifier",
        "outbox.relay.cdc.slot|1slot|a PostgreSQL identifier",
        "outbox.relay.cdc.slot|slot'; drop table outbox_events|a PostgreSQL identifier",
        "outbox.relay.cdc.slot|a234567890123456789012345678901234567890123456789012345678901234|a PostgreSQL identifier",
    })
    void anInvalidValueNamesKeyValueAndWhatIsAllowed(String key, String value, String allowed) {
        assertThatThrownBy(() -> RelayConfig.load(ConfigLookups.of(Map.of(key, value))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(key + "=" + value)
                .hasMessageContaining("allowed: " + allowed);
    }

    @Test
    void cdcModeIsOffByDefaultAndTurnsOffListening() {
        RelayConfig defaults = RelayConfig.defaults();
        assertThat(defaults.mode()).isEqualTo(RelayMode.RELAY);
        assertThat(defaults.cdc()).isFalse();
        assertThat(defaults.cdcRetention()).isEqualTo(Duration.ofHours(1));
        assertThat(defaults.cdcSlot()).isEqualTo("ee_outbox_cdc");
        assertThat(defaults.notifyEnabled()).isTrue();
        RelayConfig cdc = RelayConfig.load(ConfigLookups.of(Map.of("outbox.relay.mode", "cdc",
                "outbox.relay.cdc.retention", "PT0S", "outbox.relay.cdc.slot", "_orders_cdc_2")));
        assertThat(cdc.cdc()).isTrue();
        assertThat(cdc.cdcRetention()).isZero();
        assertThat(cdc.cdcSlot()).isEqualTo("_orders_cdc_2");
        assertThat(cdc.notifyEnabled()).as("no claim waits for a notification in cdc mode").isFalse();
    }

    /**
     * The relay's inbox cleanup and {@code Inbox.forgetOlderThan} run the same statement: a consumer that cleans its
     * own inbox may use any retention and batch size the relay accepts, and no other.
     */
    @Test
    void theInboxLimitsAreInboxForgetOlderThansLimits() {
        assertThat(RelaySettings.INBOX_RETENTION.check(Inbox.MIN_RETENTION)).isEqualTo(Inbox.MIN_RETENTION);
        assertThat(RelaySettings.INBOX_RETENTION.check(Inbox.MAX_RETENTION)).isEqualTo(Inbox.MAX_RETENTION);
        assertThatThrownBy(() -> RelaySettings.INBOX_RETENTION.check(Inbox.MIN_RETENTION.minusMillis(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RelaySettings.INBOX_RETENTION.check(Inbox.MAX_RETENTION.plusMillis(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(RelaySettings.CLEANUP_BATCH_SIZE.check(Inbox.MAX_FORGET_BATCH)).isEqualTo(Inbox.MAX_FORGET_BATCH);
        assertThatThrownBy(() -> RelaySettings.CLEANUP_BATCH_SIZE.check(Inbox.MAX_FORGET_BATCH + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void backoffMaxBelowInitialNamesBothKeys() {
        assertThatThrownBy(() -> RelayConfig.load(ConfigLookups.of(Map.of(
                "outbox.relay.backoff.initial", "PT10S", "outbox.relay.backoff.max", "PT5S"))))
                .hasMessageContaining("outbox.relay.backoff.max=PT5S")
                .hasMessageContaining("outbox.relay.backoff.initial=PT10S");
    }

    @Test
    void thePasswordIsNeverInToString() {
        RelayConfig c = RelayConfig.builder().set(RelaySettings.NOTIFY_JDBC_URL, "jdbc:postgresql://db/app").set(RelaySettings.NOTIFY_USER, "u")
                .set(RelaySettings.NOTIFY_PASSWORD, "hunter2").build();
        assertThat(c.toString()).doesNotContain("hunter2").contains("****");
    }

    @Test
    void aPasswordInTheNotifyUrlsQueryIsNeitherLoggedNorInAnError() {
        RelayConfig c = RelayConfig.load(ConfigLookups.of(Map.of("outbox.relay.notify.jdbc-url",
                "jdbc:postgresql://db/app?user=relay&password=hunter2")));
        assertThat(c.notifyJdbcUrl()).contains("jdbc:postgresql://db/app?user=relay&password=hunter2");
        assertThat(c.toString()).doesNotContain("hunter2").contains("notify.jdbc-url=jdbc:postgresql://db/app?****");
        assertThatThrownBy(() -> RelayConfig.load(ConfigLookups.of(Map.of("outbox.relay.notify.jdbc-url",
                "jdbc:mysql://db/app?password=hunter2"))))
                .hasMessageContaining("outbox.relay.notify.jdbc-url=jdbc:mysql://db/app?****")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void environmentVariablesAreFoundByTheMicroProfileRule() {
        var env = ConfigLookups.environment(Map.of("OUTBOX_RELAY_BATCH_SIZE", "250", "outbox_relay_ordered", "true"));
        RelayConfig c = RelayConfig.load(env);
        assertThat(c.batchSize()).isEqualTo(250);
        assertThat(c.ordered()).isTrue();
        assertThat(ConfigLookups.environmentName("outbox.relay.backoff.initial")).isEqualTo("OUTBOX_RELAY_BACKOFF_INITIAL");
    }

    @Test
    void theFirstLookupThatHasAValueWins() {
        var lookup = ConfigLookups.firstOf(java.util.List.of(
                ConfigLookups.of(Map.of("outbox.relay.batch-size", "7")),
                ConfigLookups.of(Map.of("outbox.relay.batch-size", "9", "outbox.relay.max-attempts", "4"))));
        RelayConfig c = RelayConfig.load(lookup);
        assertThat(c.batchSize()).isEqualTo(7);
        assertThat(c.maxAttempts()).isEqualTo(4);
    }

    @Test
    void blankValuesKeepTheDefault() {
        assertThat(RelayConfig.load(ConfigLookups.of(Map.of("outbox.relay.batch-size", "  "))).batchSize()).isEqualTo(RelaySettings.BATCH_SIZE.defaultValue());
    }
}
