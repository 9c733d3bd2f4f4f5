package io.eeoutbox.relay;

import java.net.InetAddress;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The relay's settings: immutable, validated, with a default for every key.
 *
 * <p>Keys follow MicroProfile Config naming; durations are ISO-8601 ({@code PT5S}). Every invalid
 * value fails with an {@link IllegalArgumentException} that names the key, the value and what is
 * allowed. {@link #load(Function)} reads the keys from any lookup (MicroProfile Config, system
 * properties, environment variables: see {@link ConfigLookups}); {@link #builder()} sets them in code.
 *
 * <table>
 *   <caption>Keys and defaults</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #ENABLED}</td><td>true</td><td>false: the relay does not start</td></tr>
 *   <tr><td>{@value #NAME}</td><td>host-pid</td><td>this relay's name in logs</td></tr>
 *   <tr><td>{@value #BATCH_SIZE}</td><td>100</td><td>rows per claim, 1..10000</td></tr>
 *   <tr><td>{@value #POLL_INTERVAL}</td><td>PT5S while the NOTIFY listener is connected, PT1S otherwise</td>
 *       <td>fallback poll; when set, used in both cases</td></tr>
 *   <tr><td>{@value #BUSY_POLL_INTERVAL}</td><td>PT0.005S</td><td>after a drain that claimed events, look again
 *       this soon, until a look finds none (PT0S: off); see {@link #busyPollInterval()}</td></tr>
 *   <tr><td>{@value #MAX_ATTEMPTS}</td><td>10</td><td>attempts before a row becomes a dead letter</td></tr>
 *   <tr><td>{@value #BACKOFF_INITIAL}</td><td>PT1S</td><td>delay after the first failure</td></tr>
 *   <tr><td>{@value #BACKOFF_FACTOR}</td><td>2.0</td><td>growth per further failure</td></tr>
 *   <tr><td>{@value #BACKOFF_MAX}</td><td>PT5M</td><td>longest delay</td></tr>
 *   <tr><td>{@value #BACKOFF_JITTER}</td><td>0.2</td><td>random spread, a fraction 0..1</td></tr>
 *   <tr><td>{@value #LEASE}</td><td>PT60S</td><td>how long a claim is exclusive to this relay</td></tr>
 *   <tr><td>{@value #ORDERED}</td><td>false</td><td>publish each aggregate's events in write order</td></tr>
 *   <tr><td>{@value #NOTIFY_ENABLED}</td><td>true</td><td>LISTEN for the insert trigger's notifications</td></tr>
 *   <tr><td>{@value #NOTIFY_CHANNEL}</td><td>outbox_event</td><td>the channel, a PostgreSQL identifier</td></tr>
 *   <tr><td>{@value #NOTIFY_JDBC_URL}</td><td>(none)</td>
 *       <td>a dedicated connection for LISTEN; without it one connection of the data source is kept</td></tr>
 *   <tr><td>{@value #NOTIFY_USER} / {@value #NOTIFY_PASSWORD}</td><td>(none)</td><td>for that URL</td></tr>
 *   <tr><td>{@value #COMPLETION}</td><td>mark</td><td>mark: keep published rows; delete: delete-on-publish</td></tr>
 *   <tr><td>{@value #RETENTION}</td><td>P7D</td><td>how long published rows are kept</td></tr>
 *   <tr><td>{@value #CLEANUP_INTERVAL}</td><td>PT1H</td><td>how often the cleanup runs</td></tr>
 *   <tr><td>{@value #CLEANUP_BATCH_SIZE}</td><td>1000</td><td>rows deleted per cleanup transaction</td></tr>
 *   <tr><td>{@value #INBOX_RETENTION}</td><td>P30D</td><td>how long the consumers' inbox records
 *       (processed_events) are kept, PT1H..P36500D; see {@link #inboxRetention()}</td></tr>
 *   <tr><td>{@value #CLAIM_RESCAN_INTERVAL}</td><td>PT1S</td><td>a claim starts at the head of the outbox at
 *       least this often, else where this relay claimed one interval ago, PT0S (always the head)..PT1H;
 *       see {@link #claimRescanInterval()}</td></tr>
 *   <tr><td>{@value #SYNCHRONOUS_COMMIT}</td><td>{@value #DEFAULT_SYNCHRONOUS_COMMIT}</td>
 *       <td>PostgreSQL's synchronous_commit for the relay's own transactions (claim, complete, record failures,
 *       defer, release, cleanup), set per transaction: on, off, local, remote_write or remote_apply. With off a
 *       commit does not wait for its WAL flush; a database crash can lose the last such commits, which only makes
 *       their rows claimable again or publishes them again (at-least-once; consumers dedupe by event id). Never
 *       applies to the producers' inserts</td></tr>
 *   <tr><td>{@value #DATASOURCE}</td><td>{@value #DEFAULT_DATASOURCE}</td><td>JNDI name of a non-JTA DataSource</td></tr>
 *   <tr><td>{@value #EXECUTOR}</td><td>{@value #DEFAULT_EXECUTOR}</td><td>JNDI name of a ManagedScheduledExecutorService</td></tr>
 *   <tr><td>{@value #THREAD_FACTORY}</td><td>{@value #DEFAULT_THREAD_FACTORY}</td><td>JNDI name of a ManagedThreadFactory (LISTEN thread)</td></tr>
 *   <tr><td>{@value #JMS_CONNECTION_FACTORY}</td><td>{@value #DEFAULT_JMS_CONNECTION_FACTORY}</td><td>JNDI name</td></tr>
 *   <tr><td>{@value #JMS_DESTINATION}</td><td>{@value #DEFAULT_JMS_DESTINATION}</td><td>JNDI name</td></tr>
 * </table>
 */
public final class RelayConfig {

    public static final String PREFIX = "outbox.relay.";
    public static final String ENABLED = "outbox.relay.enabled";
    public static final String NAME = "outbox.relay.name";
    public static final String BATCH_SIZE = "outbox.relay.batch-size";
    public static final String BATCH_MAX_BYTES = "outbox.relay.batch-max-bytes";
    public static final String POLL_INTERVAL = "outbox.relay.poll-interval";
    public static final String BUSY_POLL_INTERVAL = "outbox.relay.busy-poll-interval";
    public static final String MAX_ATTEMPTS = "outbox.relay.max-attempts";
    public static final String BACKOFF_INITIAL = "outbox.relay.backoff.initial";
    public static final String BACKOFF_FACTOR = "outbox.relay.backoff.factor";
    public static final String BACKOFF_MAX = "outbox.relay.backoff.max";
    public static final String BACKOFF_JITTER = "outbox.relay.backoff.jitter";
    public static final String LEASE = "outbox.relay.lease";
    public static final String ORDERED = "outbox.relay.ordered";
    public static final String NOTIFY_ENABLED = "outbox.relay.notify.enabled";
    public static final String NOTIFY_CHANNEL = "outbox.relay.notify.channel";
    public static final String NOTIFY_JDBC_URL = "outbox.relay.notify.jdbc-url";
    public static final String NOTIFY_USER = "outbox.relay.notify.user";
    public static final String NOTIFY_PASSWORD = "outbox.relay.notify.password";
    public static final String COMPLETION = "outbox.relay.completion";
    public static final String RETENTION = "outbox.relay.retention";
    public static final String CLEANUP_INTERVAL = "outbox.relay.cleanup.interval";
    public static final String CLEANUP_BATCH_SIZE = "outbox.relay.cleanup.batch-size";
    public static final String INBOX_RETENTION = "outbox.relay.inbox.retention";
    public static final String CLAIM_RESCAN_INTERVAL = "outbox.relay.claim.rescan-interval";
    public static final String SYNCHRONOUS_COMMIT = "outbox.relay.synchronous-commit";
    public static final String DATASOURCE = "outbox.relay.datasource";
    public static final String EXECUTOR = "outbox.relay.executor";
    public static final String THREAD_FACTORY = "outbox.relay.thread-factory";
    public static final String JMS_CONNECTION_FACTORY = "outbox.relay.jms.connection-factory";
    public static final String JMS_DESTINATION = "outbox.relay.jms.destination";

    public static final String DEFAULT_DATASOURCE = "java:app/jdbc/OutboxRelay";
    public static final String DEFAULT_EXECUTOR = "java:comp/DefaultManagedScheduledExecutorService";
    public static final String DEFAULT_THREAD_FACTORY = "java:comp/DefaultManagedThreadFactory";
    public static final String DEFAULT_JMS_CONNECTION_FACTORY = "java:comp/DefaultJMSConnectionFactory";
    public static final String DEFAULT_JMS_DESTINATION = "java:app/jms/OutboxEvents";
    public static final String DEFAULT_CHANNEL = "outbox_event";
    public static final String DEFAULT_SYNCHRONOUS_COMMIT = "off";
    /**
     * Rows per claim. Bigger batches drain faster (one statement, one commit and one broker transaction
     * each): measured on 2 cores, 35k events/s at 100, 42k at 500, 54k at 1,000; the benchmark runs the
     * relay at {@link #RECOMMENDED_BATCH_SIZE}. The default stays 100 until the fault suite's broker
     * outage passes reliably at 500 (it failed in 2 of 3 CI runs there: see
     * docs/decisions/0003-default-batch-size-100.md).
     */
    public static final int DEFAULT_BATCH_SIZE = 100;
    /** The batch size the benchmark measures and recommends for draining backlogs (docs/benchmark.md). */
    public static final int RECOMMENDED_BATCH_SIZE = 500;
    /** Payload bytes per claim: what a batch may hold in the relay's memory, 4 MiB. */
    public static final int DEFAULT_BATCH_MAX_BYTES = 4 << 20;
    /** The values PostgreSQL accepts for synchronous_commit (its boolean spellings aside). */
    public static final java.util.List<String> SYNCHRONOUS_COMMIT_VALUES =
            java.util.List.of("on", "off", "local", "remote_write", "remote_apply");

    /** The fallback poll while the NOTIFY listener is connected, unless {@value #POLL_INTERVAL} is set. */
    public static final Duration DEFAULT_POLL_INTERVAL_LISTENING = Duration.ofSeconds(5);
    /** The fallback poll while nothing else wakes the relay, unless {@value #POLL_INTERVAL} is set. */
    public static final Duration DEFAULT_POLL_INTERVAL_NOT_LISTENING = Duration.ofSeconds(1);
    /** Inbox records older than this are deleted: longer than any broker's redelivery window (see the accessor). */
    public static final Duration DEFAULT_INBOX_RETENTION = Duration.ofDays(30);
    private static final Duration MIN_INBOX_RETENTION = Duration.ofHours(1);
    private static final Duration MAX_INBOX_RETENTION = Duration.ofDays(36_500);
    /** How often a claim starts at the head of the outbox, unless {@value #CLAIM_RESCAN_INTERVAL} is set. */
    public static final Duration DEFAULT_CLAIM_RESCAN_INTERVAL = Duration.ofSeconds(1);
    private static final Duration MAX_CLAIM_RESCAN_INTERVAL = Duration.ofHours(1);
    /** How soon a relay that just claimed events looks again, unless {@value #BUSY_POLL_INTERVAL} is set. */
    public static final Duration DEFAULT_BUSY_POLL_INTERVAL = Duration.ofMillis(5);

    private static final Pattern CHANNEL = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final Duration MIN_POLL = Duration.ofMillis(10);
    private static final Duration MAX_POLL = Duration.ofHours(1);
    private static final Duration MAX_BUSY_POLL = Duration.ofSeconds(10);
    private static final Duration MIN_LEASE = Duration.ofSeconds(1);
    private static final Duration MAX_LEASE = Duration.ofHours(24);

    private final String name;
    private final boolean enabled;
    private final int batchSize;
    private final int batchMaxBytes;
    private final Duration pollInterval; // null: the defaults by listener state
    private final Duration busyPollInterval;
    private final int maxAttempts;
    private final Duration backoffInitial;
    private final double backoffFactor;
    private final Duration backoffMax;
    private final double backoffJitter;
    private final Duration lease;
    private final boolean ordered;
    private final boolean notifyEnabled;
    private final String notifyChannel;
    private final String notifyJdbcUrl;
    private final String notifyUser;
    private final String notifyPassword;
    private final CompletionMode completion;
    private final Duration retention;
    private final Duration cleanupInterval;
    private final int cleanupBatchSize;
    private final Duration inboxRetention;
    private final Duration claimRescanInterval;
    private final String synchronousCommit;
    private final String dataSource;
    private final String executor;
    private final String threadFactory;
    private final String jmsConnectionFactory;
    private final String jmsDestination;

    private RelayConfig(Builder b) {
        this.name = b.name != null ? b.name : defaultName();
        this.enabled = b.enabled;
        this.batchSize = b.batchSize;
        this.batchMaxBytes = b.batchMaxBytes;
        this.pollInterval = b.pollInterval;
        this.busyPollInterval = b.busyPollInterval;
        this.maxAttempts = b.maxAttempts;
        this.backoffInitial = b.backoffInitial;
        this.backoffFactor = b.backoffFactor;
        this.backoffMax = b.backoffMax;
        this.backoffJitter = b.backoffJitter;
        this.lease = b.lease;
        this.ordered = b.ordered;
        this.notifyEnabled = b.notifyEnabled;
        this.notifyChannel = b.notifyChannel;
        this.notifyJdbcUrl = b.notifyJdbcUrl;
        this.notifyUser = b.notifyUser;
        this.notifyPassword = b.notifyPassword;
        this.completion = b.completion;
        this.retention = b.retention;
        this.cleanupInterval = b.cleanupInterval;
        this.cleanupBatchSize = b.cleanupBatchSize;
        this.inboxRetention = b.inboxRetention;
        this.claimRescanInterval = b.claimRescanInterval;
        this.synchronousCommit = b.synchronousCommit;
        this.dataSource = b.dataSource;
        this.executor = b.executor;
        this.threadFactory = b.threadFactory;
        this.jmsConnectionFactory = b.jmsConnectionFactory;
        this.jmsDestination = b.jmsDestination;
    }

    /** All defaults. */
    public static RelayConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Reads every key from {@code lookup} (absent keys keep their defaults).
     *
     * @throws IllegalArgumentException naming the key, the value and what is allowed, for the first invalid value
     */
    public static RelayConfig load(Function<String, Optional<String>> lookup) {
        Objects.requireNonNull(lookup, "lookup");
        Reader r = new Reader(lookup);
        Builder b = builder();
        r.string(NAME).ifPresent(b::name);
        r.bool(ENABLED).ifPresent(b::enabled);
        r.integer(BATCH_SIZE).ifPresent(b::batchSize);
        r.integer(BATCH_MAX_BYTES).ifPresent(b::batchMaxBytes);
        r.duration(POLL_INTERVAL, b::pollInterval);
        r.duration(BUSY_POLL_INTERVAL, b::busyPollInterval);
        r.integer(MAX_ATTEMPTS).ifPresent(b::maxAttempts);
        r.duration(BACKOFF_INITIAL, b::backoffInitial);
        r.decimal(BACKOFF_FACTOR).ifPresent(b::backoffFactor);
        r.duration(BACKOFF_MAX, b::backoffMax);
        r.decimal(BACKOFF_JITTER).ifPresent(b::backoffJitter);
        r.duration(LEASE, b::lease);
        r.bool(ORDERED).ifPresent(b::ordered);
        r.bool(NOTIFY_ENABLED).ifPresent(b::notifyEnabled);
        r.string(NOTIFY_CHANNEL).ifPresent(b::notifyChannel);
        r.string(NOTIFY_JDBC_URL).ifPresent(b::notifyJdbcUrl);
        r.string(NOTIFY_USER).ifPresent(b::notifyUser);
        r.raw(NOTIFY_PASSWORD).ifPresent(b::notifyPassword);
        r.string(COMPLETION).ifPresent(v -> b.completion(parseCompletion(v)));
        r.duration(RETENTION, b::retention);
        r.duration(CLEANUP_INTERVAL, b::cleanupInterval);
        r.integer(CLEANUP_BATCH_SIZE).ifPresent(b::cleanupBatchSize);
        r.duration(INBOX_RETENTION, b::inboxRetention);
        r.duration(CLAIM_RESCAN_INTERVAL, b::claimRescanInterval);
        r.string(SYNCHRONOUS_COMMIT).ifPresent(b::synchronousCommit);
        r.string(DATASOURCE).ifPresent(b::dataSource);
        r.string(EXECUTOR).ifPresent(b::executor);
        r.string(THREAD_FACTORY).ifPresent(b::threadFactory);
        r.string(JMS_CONNECTION_FACTORY).ifPresent(b::jmsConnectionFactory);
        r.string(JMS_DESTINATION).ifPresent(b::jmsDestination);
        return b.build();
    }

    private static CompletionMode parseCompletion(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "mark" -> CompletionMode.MARK;
            case "delete" -> CompletionMode.DELETE;
            default -> throw invalid(COMPLETION, value, "mark or delete");
        };
    }

    /**
     * Checks a synchronous_commit value for {@value #SYNCHRONOUS_COMMIT}.
     *
     * @return the value in lower case, as PostgreSQL names it
     * @throws IllegalArgumentException naming the key and the allowed values
     */
    public static String synchronousCommit(String value) {
        String v = value == null ? null : value.trim().toLowerCase(Locale.ROOT);
        if (v == null || !SYNCHRONOUS_COMMIT_VALUES.contains(v)) {
            throw invalid(SYNCHRONOUS_COMMIT, value, String.join(", ", SYNCHRONOUS_COMMIT_VALUES));
        }
        return v;
    }

    static IllegalArgumentException invalid(String key, Object value, String allowed) {
        return new IllegalArgumentException("invalid configuration: " + key + "=" + value + " (allowed: " + allowed + ")");
    }

    private static String defaultName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "localhost";
        }
        String name = host + "-" + ProcessHandle.current().pid();
        return name.length() <= 100 ? name : name.substring(name.length() - 100);
    }

    // --- accessors ---------------------------------------------------------------------------

    public String name() {
        return name;
    }

    public boolean enabled() {
        return enabled;
    }

    public int batchSize() {
        return batchSize;
    }

    /**
     * The payload bytes (as stored) a claim may take: it stops at {@link #batchSize()} rows or once its
     * rows hold this many bytes, whichever comes first; the first row always goes, however big.
     */
    public int batchMaxBytes() {
        return batchMaxBytes;
    }

    /** The configured poll interval, or empty when the defaults by listener state apply. */
    public Optional<Duration> pollInterval() {
        return Optional.ofNullable(pollInterval);
    }

    /** The fallback poll interval given whether the NOTIFY listener is connected now. */
    public Duration pollInterval(boolean listening) {
        if (pollInterval != null) {
            return pollInterval;
        }
        return listening ? DEFAULT_POLL_INTERVAL_LISTENING : DEFAULT_POLL_INTERVAL_NOT_LISTENING;
    }

    /**
     * How soon the relay looks again after a drain that claimed events; it keeps looking at this pace
     * until a look finds nothing, then waits for a wake-up (NOTIFY, the in-server commit hint) or the
     * fallback poll. While events keep coming, their publish latency so depends on this interval and
     * not on how promptly notifications arrive (under heavy load PostgreSQL and PgJDBC deliver them in
     * bunches, hundreds of milliseconds apart: see docs/decisions/0004-notify-latency.md and
     * 0005-busy-poll-and-notify-only-while-waiting.md). It costs one claim that finds nothing
     * per burst of events; an idle relay sends no extra query. With schema V8, a relay whose busy look
     * finds events again also tells producers to stop notifying until it is idle again. Zero: off,
     * wake-ups only (and producers notify on every insert while the relay is registered).
     */
    public Duration busyPollInterval() {
        return busyPollInterval;
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    public Duration backoffInitial() {
        return backoffInitial;
    }

    public double backoffFactor() {
        return backoffFactor;
    }

    public Duration backoffMax() {
        return backoffMax;
    }

    public double backoffJitter() {
        return backoffJitter;
    }

    public Duration lease() {
        return lease;
    }

    public boolean ordered() {
        return ordered;
    }

    public boolean notifyEnabled() {
        return notifyEnabled;
    }

    public String notifyChannel() {
        return notifyChannel;
    }

    public Optional<String> notifyJdbcUrl() {
        return Optional.ofNullable(notifyJdbcUrl);
    }

    public Optional<String> notifyUser() {
        return Optional.ofNullable(notifyUser);
    }

    /** The password for {@link #notifyJdbcUrl()}; never logged, not in {@link #toString()}. */
    public Optional<String> notifyPassword() {
        return Optional.ofNullable(notifyPassword);
    }

    public CompletionMode completion() {
        return completion;
    }

    public Duration retention() {
        return retention;
    }

    public Duration cleanupInterval() {
        return cleanupInterval;
    }

    public int cleanupBatchSize() {
        return cleanupBatchSize;
    }

    /**
     * How long inbox records ({@code processed_events}) are kept before the elected cleaner deletes them.
     * A redelivery of an event older than this is applied again, so it must exceed every redelivery window:
     * the default, 30 days, is longer than ActiveMQ Artemis' and RabbitMQ's redelivery of an unacknowledged
     * message (seconds to minutes, up to max-delivery-attempts), Amazon SQS's longest retention (14 days) and
     * Kafka's default retention (7 days). Replaying a dead-letter queue older than this re-applies events.
     */
    public Duration inboxRetention() {
        return inboxRetention;
    }

    /**
     * How often a claim starts at the head of the outbox; in between, claims start at the lowest seq this
     * relay claimed one interval earlier (see {@link ClaimFloor}), so that a held snapshot (whose dead index
     * entries every claim from the head would walk) does not slow every claim. Rows below that bound (retries,
     * released leases, transactions longer than the interval) wait for the next claim from the head, at most
     * one interval. Zero: every claim starts at the head.
     */
    public Duration claimRescanInterval() {
        return claimRescanInterval;
    }

    /** PostgreSQL's synchronous_commit for the relay's own transactions. */
    public String synchronousCommit() {
        return synchronousCommit;
    }

    public String dataSource() {
        return dataSource;
    }

    public String executor() {
        return executor;
    }

    public String threadFactory() {
        return threadFactory;
    }

    public String jmsConnectionFactory() {
        return jmsConnectionFactory;
    }

    public String jmsDestination() {
        return jmsDestination;
    }

    /** A builder holding this configuration's values, to change some of them. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.name = name;
        b.enabled = enabled;
        b.batchSize = batchSize;
        b.batchMaxBytes = batchMaxBytes;
        b.pollInterval = pollInterval;
        b.busyPollInterval = busyPollInterval;
        b.maxAttempts = maxAttempts;
        b.backoffInitial = backoffInitial;
        b.backoffFactor = backoffFactor;
        b.backoffMax = backoffMax;
        b.backoffJitter = backoffJitter;
        b.lease = lease;
        b.ordered = ordered;
        b.notifyEnabled = notifyEnabled;
        b.notifyChannel = notifyChannel;
        b.notifyJdbcUrl = notifyJdbcUrl;
        b.notifyUser = notifyUser;
        b.notifyPassword = notifyPassword;
        b.completion = completion;
        b.retention = retention;
        b.cleanupInterval = cleanupInterval;
        b.cleanupBatchSize = cleanupBatchSize;
        b.inboxRetention = inboxRetention;
        b.claimRescanInterval = claimRescanInterval;
        b.synchronousCommit = synchronousCommit;
        b.dataSource = dataSource;
        b.executor = executor;
        b.threadFactory = threadFactory;
        b.jmsConnectionFactory = jmsConnectionFactory;
        b.jmsDestination = jmsDestination;
        return b;
    }

    @Override
    public String toString() {
        return "RelayConfig[name=" + name + ", enabled=" + enabled + ", batchSize=" + batchSize
                + ", batchMaxBytes=" + batchMaxBytes
                + ", pollInterval=" + (pollInterval == null ? "default" : pollInterval)
                + ", busyPollInterval=" + busyPollInterval
                + ", maxAttempts=" + maxAttempts + ", backoff=" + backoffInitial + "*" + backoffFactor + "^n<=" + backoffMax
                + "±" + backoffJitter + ", lease=" + lease + ", ordered=" + ordered
                + ", notify=" + (notifyEnabled ? notifyChannel : "off")
                + (notifyJdbcUrl == null ? "" : ", notifyJdbcUrl=" + notifyJdbcUrl)
                + (notifyUser == null ? "" : ", notifyUser=" + notifyUser)
                + (notifyPassword == null ? "" : ", notifyPassword=****")
                + ", completion=" + completion + ", retention=" + retention + ", cleanupInterval=" + cleanupInterval
                + ", cleanupBatchSize=" + cleanupBatchSize + ", inboxRetention=" + inboxRetention
                + ", claimRescanInterval=" + claimRescanInterval + ", synchronousCommit=" + synchronousCommit
                + ", dataSource=" + dataSource + ", executor=" + executor
                + ", threadFactory=" + threadFactory + ", jmsConnectionFactory=" + jmsConnectionFactory
                + ", jmsDestination=" + jmsDestination + "]";
    }

    /** Sets values in code; each setter checks its value at once, {@link #build()} checks them together. */
    public static final class Builder {
        private String name;
        private boolean enabled = true;
        private int batchSize = DEFAULT_BATCH_SIZE;
        private int batchMaxBytes = DEFAULT_BATCH_MAX_BYTES;
        private Duration pollInterval;
        private Duration busyPollInterval = DEFAULT_BUSY_POLL_INTERVAL;
        private int maxAttempts = 10;
        private Duration backoffInitial = Duration.ofSeconds(1);
        private double backoffFactor = 2.0;
        private Duration backoffMax = Duration.ofMinutes(5);
        private double backoffJitter = 0.2;
        private Duration lease = Duration.ofSeconds(60);
        private boolean ordered;
        private boolean notifyEnabled = true;
        private String notifyChannel = DEFAULT_CHANNEL;
        private String notifyJdbcUrl;
        private String notifyUser;
        private String notifyPassword;
        private CompletionMode completion = CompletionMode.MARK;
        private Duration retention = Duration.ofDays(7);
        private Duration cleanupInterval = Duration.ofHours(1);
        private int cleanupBatchSize = 1000;
        private Duration inboxRetention = DEFAULT_INBOX_RETENTION;
        private Duration claimRescanInterval = DEFAULT_CLAIM_RESCAN_INTERVAL;
        private String synchronousCommit = DEFAULT_SYNCHRONOUS_COMMIT;
        private String dataSource = DEFAULT_DATASOURCE;
        private String executor = DEFAULT_EXECUTOR;
        private String threadFactory = DEFAULT_THREAD_FACTORY;
        private String jmsConnectionFactory = DEFAULT_JMS_CONNECTION_FACTORY;
        private String jmsDestination = DEFAULT_JMS_DESTINATION;

        private Builder() {
        }

        public Builder name(String value) {
            if (value == null || value.isBlank() || value.length() > 100) {
                throw invalid(NAME, value, "a non-blank name of at most 100 characters");
            }
            this.name = value.trim();
            return this;
        }

        public Builder enabled(boolean value) {
            this.enabled = value;
            return this;
        }

        public Builder batchSize(int value) {
            this.batchSize = range(BATCH_SIZE, value, 1, 10_000);
            return this;
        }

        /** Payload bytes per claim, 1 KiB to 1 GiB (see {@link RelayConfig#batchMaxBytes()}). */
        public Builder batchMaxBytes(int value) {
            this.batchMaxBytes = range(BATCH_MAX_BYTES, value, 1024, 1 << 30);
            return this;
        }

        /** Sets one fallback poll interval for both listener states. */
        public Builder pollInterval(Duration value) {
            this.pollInterval = duration(POLL_INTERVAL, value, MIN_POLL, MAX_POLL);
            return this;
        }

        /** See {@link RelayConfig#busyPollInterval()}: zero (off) to 10 s. */
        public Builder busyPollInterval(Duration value) {
            this.busyPollInterval = duration(BUSY_POLL_INTERVAL, value, Duration.ZERO, MAX_BUSY_POLL);
            return this;
        }

        public Builder maxAttempts(int value) {
            this.maxAttempts = range(MAX_ATTEMPTS, value, 1, 1000);
            return this;
        }

        public Builder backoffInitial(Duration value) {
            this.backoffInitial = duration(BACKOFF_INITIAL, value, Duration.ofMillis(1), Duration.ofDays(1));
            return this;
        }

        public Builder backoffFactor(double value) {
            if (!(value >= 1.0 && value <= 100.0)) {
                throw invalid(BACKOFF_FACTOR, value, "a number from 1.0 to 100.0");
            }
            this.backoffFactor = value;
            return this;
        }

        public Builder backoffMax(Duration value) {
            this.backoffMax = duration(BACKOFF_MAX, value, Duration.ofMillis(1), Duration.ofDays(7));
            return this;
        }

        public Builder backoffJitter(double value) {
            if (!(value >= 0.0 && value <= 1.0)) {
                throw invalid(BACKOFF_JITTER, value, "a fraction from 0.0 to 1.0");
            }
            this.backoffJitter = value;
            return this;
        }

        public Builder lease(Duration value) {
            this.lease = duration(LEASE, value, MIN_LEASE, MAX_LEASE);
            return this;
        }

        public Builder ordered(boolean value) {
            this.ordered = value;
            return this;
        }

        public Builder notifyEnabled(boolean value) {
            this.notifyEnabled = value;
            return this;
        }

        public Builder notifyChannel(String value) {
            if (value == null || !CHANNEL.matcher(value).matches()) {
                throw invalid(NOTIFY_CHANNEL, value,
                        "a PostgreSQL identifier: a lower-case letter or _, then up to 62 lower-case letters, digits or _");
            }
            this.notifyChannel = value;
            return this;
        }

        public Builder notifyJdbcUrl(String value) {
            if (value != null && !value.startsWith("jdbc:postgresql:")) {
                throw invalid(NOTIFY_JDBC_URL, value, "a PostgreSQL JDBC URL starting with jdbc:postgresql:");
            }
            this.notifyJdbcUrl = value;
            return this;
        }

        public Builder notifyUser(String value) {
            this.notifyUser = value;
            return this;
        }

        public Builder notifyPassword(String value) {
            this.notifyPassword = value;
            return this;
        }

        public Builder completion(CompletionMode value) {
            this.completion = Objects.requireNonNull(value, COMPLETION);
            return this;
        }

        public Builder retention(Duration value) {
            this.retention = duration(RETENTION, value, Duration.ZERO, Duration.ofDays(36_500));
            return this;
        }

        public Builder cleanupInterval(Duration value) {
            this.cleanupInterval = duration(CLEANUP_INTERVAL, value, Duration.ofMillis(100), Duration.ofDays(7));
            return this;
        }

        public Builder cleanupBatchSize(int value) {
            this.cleanupBatchSize = range(CLEANUP_BATCH_SIZE, value, 1, 100_000);
            return this;
        }

        /** See {@link RelayConfig#inboxRetention()}: PT1H to P36500D. */
        public Builder inboxRetention(Duration value) {
            this.inboxRetention = duration(INBOX_RETENTION, value, MIN_INBOX_RETENTION, MAX_INBOX_RETENTION);
            return this;
        }

        /** See {@link RelayConfig#claimRescanInterval()}: zero (every claim from the head) to PT1H. */
        public Builder claimRescanInterval(Duration value) {
            this.claimRescanInterval = duration(CLAIM_RESCAN_INTERVAL, value, Duration.ZERO, MAX_CLAIM_RESCAN_INTERVAL);
            return this;
        }

        /** synchronous_commit for the relay's own transactions: on, off, local, remote_write or remote_apply. */
        public Builder synchronousCommit(String value) {
            this.synchronousCommit = RelayConfig.synchronousCommit(value);
            return this;
        }

        public Builder dataSource(String value) {
            this.dataSource = jndi(DATASOURCE, value);
            return this;
        }

        public Builder executor(String value) {
            this.executor = jndi(EXECUTOR, value);
            return this;
        }

        public Builder threadFactory(String value) {
            this.threadFactory = jndi(THREAD_FACTORY, value);
            return this;
        }

        public Builder jmsConnectionFactory(String value) {
            this.jmsConnectionFactory = jndi(JMS_CONNECTION_FACTORY, value);
            return this;
        }

        public Builder jmsDestination(String value) {
            this.jmsDestination = jndi(JMS_DESTINATION, value);
            return this;
        }

        public RelayConfig build() {
            if (backoffMax.compareTo(backoffInitial) < 0) {
                throw invalid(BACKOFF_MAX, backoffMax, "a duration not below " + BACKOFF_INITIAL + "=" + backoffInitial);
            }
            if ((notifyUser != null || notifyPassword != null) && notifyJdbcUrl == null) {
                throw invalid(NOTIFY_USER, notifyUser == null ? "(unset)" : notifyUser,
                        "set only together with " + NOTIFY_JDBC_URL);
            }
            return new RelayConfig(this);
        }

        private static int range(String key, int value, int min, int max) {
            if (value < min || value > max) {
                throw invalid(key, value, "a whole number from " + min + " to " + max);
            }
            return value;
        }

        private static Duration duration(String key, Duration value, Duration min, Duration max) {
            if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
                throw invalid(key, value, "an ISO-8601 duration from " + min + " to " + max);
            }
            return value;
        }

        private static String jndi(String key, String value) {
            if (value == null || value.isBlank()) {
                throw invalid(key, value, "a non-blank JNDI name such as java:app/...");
            }
            return value.trim();
        }
    }

    /** Reads and parses raw values, naming the key in every error. */
    private static final class Reader {
        private final Function<String, Optional<String>> lookup;

        Reader(Function<String, Optional<String>> lookup) {
            this.lookup = lookup;
        }

        Optional<String> raw(String key) {
            Optional<String> value = lookup.apply(key);
            return value == null ? Optional.empty() : value.filter(v -> !v.isEmpty());
        }

        Optional<String> string(String key) {
            return raw(key).map(String::trim).filter(v -> !v.isEmpty());
        }

        Optional<Boolean> bool(String key) {
            return string(key).map(v -> switch (v.toLowerCase(Locale.ROOT)) {
                case "true" -> Boolean.TRUE;
                case "false" -> Boolean.FALSE;
                default -> throw invalid(key, v, "true or false");
            });
        }

        Optional<Integer> integer(String key) {
            return string(key).map(v -> {
                try {
                    return Integer.parseInt(v);
                } catch (NumberFormatException e) {
                    throw invalid(key, v, "a whole number");
                }
            });
        }

        Optional<Double> decimal(String key) {
            return string(key).map(v -> {
                try {
                    double d = Double.parseDouble(v);
                    if (Double.isNaN(d) || Double.isInfinite(d)) {
                        throw new NumberFormatException(v);
                    }
                    return d;
                } catch (NumberFormatException e) {
                    throw invalid(key, v, "a decimal number such as 2.0");
                }
            });
        }

        Optional<Duration> duration(String key) {
            return string(key).map(v -> {
                try {
                    return Duration.parse(v);
                } catch (DateTimeParseException e) {
                    throw invalid(key, v, "an ISO-8601 duration such as PT5S, PT1M or P7D");
                }
            });
        }

        /** Sets a duration, naming the value as it was written (not normalized) when it is out of range. */
        void duration(String key, java.util.function.Consumer<Duration> setter) {
            Optional<String> raw = string(key);
            Optional<Duration> value = duration(key);
            if (value.isPresent()) {
                try {
                    setter.accept(value.get());
                } catch (IllegalArgumentException e) {
                    String written = key + "=" + raw.get();
                    throw new IllegalArgumentException(e.getMessage().replace(key + "=" + value.get(), written), e);
                }
            }
        }
    }
}
