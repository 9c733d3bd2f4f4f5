package io.eeoutbox.relay.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The relay engine's settings, each declared once (MicroProfile Config names; durations ISO-8601). The
 * README's configuration table is rendered from {@link #ALL} and a test keeps the two equal. The EE resource
 * names (data source, executor, connection factory, destination) are declared apart, in
 * {@code io.eeoutbox.relay.ee.ResourceNames}.
 */
public final class RelaySettings {

    private RelaySettings() {
    }

    /** A PostgreSQL identifier as the relay accepts one (a channel, a slot): lower-case, unquoted. */
    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final String IDENTIFIER_ALLOWED = "a PostgreSQL identifier: a lower-case letter or _, then up to 62"
            + " lower-case letters, digits or _";

    public static final Setting<Boolean> ENABLED = Setting.flag("outbox.relay.enabled", true,
            "`false`: the relay does not start in this application");

    public static final Setting<String> NAME = Setting.text("outbox.relay.name", null, Pattern.compile("(?s)\\S.{0,99}"),
            "a name of 1 to 100 characters, not blank",
            "this relay's name in logs, the MBean and the console; give each application on a server its own")
            .documentedDefault("host-pid");

    /** The default is chosen by measurement: docs/decisions/0011-default-batch-size-500.md. */
    public static final Setting<Integer> BATCH_SIZE = Setting.integer("outbox.relay.batch-size", 500, 1, 10_000,
            "rows per claim; bigger batches drain faster up to about 500 ([decision 0011](docs/decisions/0011-default-batch-size-500.md))");

    public static final Setting<Integer> BATCH_MAX_BYTES = Setting.integer("outbox.relay.batch-max-bytes", 4 << 20,
            1024, 1 << 30, "payload bytes per claim as stored (`pg_column_size`); a claim stops at `batch-size` rows"
                    + " or at this many bytes, whichever comes first; PostgreSQL compresses payloads over ~2 kB, so a"
                    + " batch of such payloads takes several times this much heap in the relay");

    public static final Setting<Duration> POLL_INTERVAL = Setting.duration("outbox.relay.poll-interval", null,
            Duration.ofMillis(10), Duration.ofHours(1), "fallback poll; when set, used whether or not the NOTIFY"
                    + " listener is connected").documentedDefault("PT5S listening, PT1S otherwise");

    public static final Setting<Duration> BUSY_POLL_INTERVAL = Setting.duration("outbox.relay.busy-poll-interval",
            Duration.ofMillis(5), Duration.ZERO, Duration.ofSeconds(10), "after a drain that claimed events, look"
                    + " again this soon, until a look finds nothing; without NOTIFY, then twice as long after each empty"
                    + " look up to the fallback poll (`PT0S`: wake-ups only;"
                    + " [decision 0005](docs/decisions/0005-busy-poll-and-notify-only-while-waiting.md))");

    public static final Setting<Integer> MAX_ATTEMPTS = Setting.integer("outbox.relay.max-attempts", 10, 1, 1000,
            "attempts before a row becomes a dead letter");

    public static final Setting<Duration> BACKOFF_INITIAL = Setting.duration("outbox.relay.backoff.initial",
            Duration.ofSeconds(1), Duration.ofMillis(1), Duration.ofDays(1), "delay after the first failure");

    public static final Setting<Double> BACKOFF_FACTOR = Setting.decimal("outbox.relay.backoff.factor", 2.0, 1.0, 100.0,
            "growth per further failure");

    public static final Setting<Duration> BACKOFF_MAX = Setting.duration("outbox.relay.backoff.max",
            Duration.ofMinutes(5), Duration.ofMillis(1), Duration.ofDays(7), "longest delay, not below `backoff.initial`");

    public static final Setting<Double> BACKOFF_JITTER = Setting.decimal("outbox.relay.backoff.jitter", 0.2, 0.0, 1.0,
            "random spread of each delay, a fraction");

    public static final Setting<Duration> LEASE = Setting.duration("outbox.relay.lease", Duration.ofSeconds(60),
            Duration.ofSeconds(1), Duration.ofHours(24), "how long a claim is exclusive to this relay");

    public static final Setting<Boolean> ORDERED = Setting.flag("outbox.relay.ordered", false,
            "publish each aggregate's events in write order");

    public static final Setting<Boolean> NOTIFY_ENABLED = Setting.flag("outbox.relay.notify.enabled", true,
            "LISTEN for the insert trigger's notifications");

    public static final Setting<String> NOTIFY_CHANNEL = Setting.text("outbox.relay.notify.channel", "outbox_event",
            IDENTIFIER, IDENTIFIER_ALLOWED, "the channel of an outbox without schema V15 (with it, the schema's own:"
                    + " [several outboxes](docs/schema.md#several-outboxes-in-one-database))");

    public static final Setting<String> NOTIFY_JDBC_URL = Setting.text("outbox.relay.notify.jdbc-url", null,
            Pattern.compile("jdbc:postgresql:\\S*"), "a PostgreSQL JDBC URL starting with jdbc:postgresql:",
            "a dedicated connection for LISTEN; without it the relay keeps one connection of its data source")
            .queryHidden();

    public static final Setting<String> NOTIFY_USER = Setting.text("outbox.relay.notify.user", null,
            Pattern.compile("\\S{1,63}"), "a PostgreSQL role name", "user for `notify.jdbc-url`");

    public static final Setting<String> NOTIFY_PASSWORD = Setting.text("outbox.relay.notify.password", null,
            Pattern.compile("(?s).{1,1000}"), "any text", "password for `notify.jdbc-url` (never logged)").secret();

    public static final Setting<CompletionMode> COMPLETION = Setting.choice("outbox.relay.completion",
            CompletionMode.MARK, words("mark", CompletionMode.MARK, "delete", CompletionMode.DELETE),
            "`mark`: keep published rows (cleaned after `retention`); `delete`: delete on publish (fastest)");

    public static final Setting<Duration> RETENTION = Setting.duration("outbox.relay.retention", Duration.ofDays(7),
            Duration.ZERO, Duration.ofDays(36_500), "how long published rows are kept");

    public static final Setting<Duration> CLEANUP_INTERVAL = Setting.duration("outbox.relay.cleanup.interval",
            Duration.ofHours(1), Duration.ofMillis(100), Duration.ofDays(7), "how often the elected cleaner runs");

    public static final Setting<Integer> CLEANUP_BATCH_SIZE = Setting.integer("outbox.relay.cleanup.batch-size", 1000,
            1, 100_000, "rows deleted per cleanup transaction (outbox and inbox)");

    public static final Setting<Duration> INBOX_RETENTION = Setting.duration("outbox.relay.inbox.retention",
            Duration.ofDays(30), Duration.ofHours(1), Duration.ofDays(36_500), "inbox records (`processed_events`)"
                    + " older than this are deleted; longer than any broker's redelivery window"
                    + " ([why 30 days](docs/operations.md#the-inbox-is-cleaned))");

    public static final Setting<Map<String, Duration>> INBOX_RETENTION_PER_CONSUMER = Setting.durationsByName(
            "outbox.relay.inbox.retention.per-consumer", 100, Duration.ofHours(1), Duration.ofDays(36_500),
            "consumers whose inbox records are kept for a time of their own, e.g. `orders-projection=P90D`; the others"
                    + " keep `inbox.retention` (schema V12; [inbox retention](docs/operations.md#the-inbox-is-cleaned))");

    public static final Setting<Duration> CLAIM_RESCAN_INTERVAL = Setting.duration("outbox.relay.claim.rescan-interval",
            Duration.ofSeconds(1), Duration.ZERO, Duration.ofHours(1), "claims start where this relay claimed one"
                    + " interval ago, and at the head of the outbox at least this often (`PT0S`: always the head;"
                    + " [held snapshots](docs/operations.md#a-held-snapshot))");

    public static final Setting<String> SYNCHRONOUS_COMMIT = Setting.choice("outbox.relay.synchronous-commit", "off",
            words("on", "on", "off", "off", "local", "local", "remote_write", "remote_write", "remote_apply", "remote_apply"),
            "PostgreSQL's `synchronous_commit` for the relay's own transactions only; `off` may lose the last"
                    + " claims or completions in a database crash, which only publishes them again"
                    + " ([decision 0002](docs/decisions/0002-synchronous-commit-off-for-relay-statements.md))");

    public static final Setting<RelayMode> MODE = Setting.choice("outbox.relay.mode", RelayMode.RELAY,
            words("relay", RelayMode.RELAY, "cdc", RelayMode.CDC), "`relay`: the relay publishes; `cdc`: a CDC"
                    + " connector reads the outbox and the relay only promotes delayed events, cleans the table and"
                    + " watches the slot, with no publisher ([cdc mode](docs/cdc.md#cleaning-the-table-cdc-mode))");

    /** Measured against deleting at insert: docs/decisions/0023-cdc-mode-cleans-after-a-retention.md. */
    public static final Setting<Duration> CDC_RETENTION = Setting.duration("outbox.relay.cdc.retention",
            Duration.ofHours(1), Duration.ZERO, Duration.ofDays(36_500), "cdc mode: rows older than this are deleted"
                    + " at each cleanup, whether or not the connector has read them yet (it reads the write-ahead"
                    + " log; [decision 0023](docs/decisions/0023-cdc-mode-cleans-after-a-retention.md))");

    public static final Setting<String> CDC_SLOT = Setting.text("outbox.relay.cdc.slot", "ee_outbox_cdc", IDENTIFIER,
            IDENTIFIER_ALLOWED, "cdc mode: the connector's replication slot, whose lag the gauges show in place of pending");

    public static final Setting<Duration> FLEET_HEARTBEAT_INTERVAL = Setting.duration(
            "outbox.relay.fleet.heartbeat-interval", Duration.ofSeconds(5), Duration.ofMillis(100), Duration.ofMinutes(5),
            "how often the relay writes its row of the fleet and reads whether the fleet is paused: pause all reaches it"
                    + " within this; missing after three (schema V13; [the fleet](docs/operations.md#every-relay-of-the-outbox))");

    public static final Setting<Duration> FLEET_RETENTION = Setting.duration("outbox.relay.fleet.retention",
            Duration.ofHours(1), Duration.ofMinutes(1), Duration.ofDays(30),
            "rows of relays unseen this long are deleted from the fleet");

    /** Every engine setting, in the order the README lists them. */
    public static final List<Setting<?>> ALL = List.of(ENABLED, NAME, BATCH_SIZE, BATCH_MAX_BYTES, POLL_INTERVAL,
            BUSY_POLL_INTERVAL, MAX_ATTEMPTS, BACKOFF_INITIAL, BACKOFF_FACTOR, BACKOFF_MAX, BACKOFF_JITTER, LEASE, ORDERED,
            NOTIFY_ENABLED, NOTIFY_CHANNEL, NOTIFY_JDBC_URL, NOTIFY_USER, NOTIFY_PASSWORD, COMPLETION, RETENTION,
            CLEANUP_INTERVAL, CLEANUP_BATCH_SIZE, INBOX_RETENTION, INBOX_RETENTION_PER_CONSUMER, CLAIM_RESCAN_INTERVAL, SYNCHRONOUS_COMMIT,
            MODE, CDC_RETENTION, CDC_SLOT, FLEET_HEARTBEAT_INTERVAL, FLEET_RETENTION);

    /**
     * The batch size the benchmark measures and recommends for draining backlogs (docs/benchmark.md): the
     * default of {@link #BATCH_SIZE} since decision 0011; the benchmark names it so that it keeps measuring 500
     * whatever the default becomes.
     */
    public static final int RECOMMENDED_BATCH_SIZE = 500;

    @SuppressWarnings("unchecked")
    private static <E> Map<String, E> words(Object... pairs) {
        Map<String, E> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], (E) pairs[i + 1]);
        }
        return m;
    }
}
