package io.eeoutbox.relay.ops;

/**
 * The relay as operators see it in JConsole, VisualVM or any JMX client: registered on the platform
 * MBean server as {@code io.eeoutbox:type=OutboxRelay,name=<relay name>} while the relay runs.
 *
 * <p>Counts of rows ({@code Pending}, {@code DeadLetters}, {@code OldestPendingAgeSeconds}) are read
 * from the database when asked (at most once a second); the {@code ...SinceStart} counters are this
 * relay's own. Every operation is logged by the relay. Failures reach the client as
 * {@link IllegalArgumentException} (a bad argument) or {@link IllegalStateException} (the database
 * failed, another relay is cleaning up), with a message and no server-side classes.
 *
 * <p>Implemented by {@link JmxAdapter} over {@link RelayOperations}, the one operations service. This interface
 * keeps its name because JMX needs it: an MXBean is defined by an interface whose name ends in {@code MXBean}, and
 * that name is what the MBean's info carries and what clients' proxies ({@code JMX.newMXBeanProxy(...,
 * RelayAdminMXBean.class)}) are built from, so renaming it would break them.
 */
public interface RelayAdminMXBean {

    /** The relay's name ({@code outbox.relay.name}). */
    String getName();

    boolean isRunning();

    /** {@code running}, {@code paused}, {@code waiting-for-broker} or {@code stopped}, as the console shows it. */
    String getState();

    /** The application the relay runs in ({@code java:app/AppName}), or null when the server did not say. */
    String getApplication();

    /** The settings in force, as configuration writes them (key to value), secrets masked, as the console shows them. */
    java.util.Map<String, String> getSettings();

    boolean isPaused();

    /** Whether the relay listens for the insert trigger's NOTIFY now. */
    boolean isListening();

    /** The publisher, for example {@code jms:java:app/jms/OutboxEvents}. */
    String getPublisher();

    /** The fallback poll interval in force now (ISO-8601). */
    String getPollInterval();

    /** Rows waiting to be published (dead letters not included); -1 in cdc mode, where it does not apply. */
    long getPending();

    /** Rows that failed {@code outbox.relay.max-attempts} times and wait for an operator. */
    long getDeadLetters();

    /** How long the oldest pending row has waited, in seconds; 0 when nothing is pending; -1 in cdc mode. */
    long getOldestPendingAgeSeconds();

    /**
     * {@code relay}, or {@code cdc} ({@code outbox.relay.mode}): then a CDC connector publishes, pending and the
     * oldest pending age do not apply (-1) and {@link #getCdcSlot()} says how far the connector is behind.
     */
    String getMode();

    /**
     * Cdc mode: the connector's replication slot as the last refresh read it (name, present, active, lagBytes,
     * retainedWalBytes, walStatus, refreshedAt) and a note on what replaces pending; empty in relay mode.
     */
    java.util.Map<String, String> getCdcSlot();

    /** Delayed events not yet due (schema V14): not pending until they fall due. */
    long getScheduled();

    /** When the earliest delayed event falls due (ISO-8601, the database's clock), or null when none is scheduled. */
    String getNextScheduledDueAt();

    /**
     * {@link #getPending()} as of the gauges' last refresh in the background ({@code outbox.relay.metrics.refresh-interval}),
     * never a query, so that a management tool does not wait on the database; -1 before the first refresh.
     */
    long getRefreshedPending();

    /** {@link #getDeadLetters()} as of the gauges' last refresh; -1 before the first refresh. */
    long getRefreshedDeadLetters();

    /** {@link #getOldestPendingAgeSeconds()} as of the gauges' last refresh; -1 before the first refresh. */
    long getRefreshedOldestPendingAgeSeconds();

    /** {@link #getScheduled()} as of the gauges' last refresh; -1 before the first refresh. */
    long getRefreshedScheduled();

    /** When the refreshed gauges were read (ISO-8601), or null before the first refresh. */
    String getGaugesRefreshedAt();

    /**
     * The destinations that cannot take messages now (a full queue, a topic without enough in-sync replicas), one
     * line each: since when, the next try, the last refusal. Their events wait in the outbox without counting
     * attempts; the other destinations keep flowing. Empty when none is held.
     */
    String[] getHeldDestinations();

    long getPublishedSinceStart();

    /** Failed publish attempts since start. */
    long getFailedSinceStart();

    long getDeadLetteredSinceStart();

    long getBatchesSinceStart();

    /** Claim to completion of the last batch, in milliseconds; -1 before the first batch. */
    long getLastBatchDurationMillis();

    /** The last database or relay error, or null. */
    String getLastError();

    /** When it happened (ISO-8601), or null. */
    String getLastErrorAt();

    /** When the relay last looked for work (ISO-8601), or null. */
    String getLastLoopAt();

    /** Claims no new batches until {@link #resume()}; the batch in flight completes. */
    void pause();

    void resume();

    /** Looks for work now (also during the back-off after a database error). */
    void runNow();

    /**
     * Makes one dead letter due again with a fresh retry budget.
     *
     * @param eventId the event's id (a UUID)
     * @return false when no dead letter has that id
     */
    boolean retryDeadLetter(String eventId);

    /**
     * Makes every dead letter matching all given filters due again; an empty or null filter matches
     * all. Times are ISO-8601 instants ({@code 2026-03-01T12:00:00Z}) or dates ({@code 2026-03-01},
     * midnight UTC); {@code createdFrom} inclusive, {@code createdTo} exclusive.
     *
     * @return how many dead letters were made due
     */
    int retryDeadLetters(String eventType, String aggregateType, String createdFrom, String createdTo);

    /**
     * {@link #retryDeadLetters(String, String, String, String)} with the console's whole filter: also the aggregate id
     * and a text the last error contains (case-insensitive).
     *
     * @return how many dead letters were made due
     */
    int retryDeadLetters(String eventType, String aggregateType, String aggregateId, String errorText, String createdFrom,
                         String createdTo);

    /**
     * Deletes published rows processed longer ago than {@code olderThan}, an ISO-8601 duration ({@code P7D},
     * {@code PT12H}), now, in bounded batches.
     *
     * @return how many rows were deleted
     */
    long purge(String olderThan);

    /**
     * Deletes published rows processed more than {@code days} days ago, now, in bounded batches.
     *
     * @return how many rows were deleted
     */
    long purgeProcessedOlderThan(int days);

    /**
     * Every relay of the outbox (schema V13), as this relay's last heartbeat read it: server, application, relay,
     * local (on this server), self, state ({@code missing} when unseen for three heartbeats), last-seen, started-at,
     * published, failed, dead-lettered, last-error, epoch-applied. Empty without schema V13.
     */
    java.util.List<java.util.Map<String, String>> getFleet();

    /** Whether every relay of the outbox is paused (pause all), as the last heartbeat read it. */
    boolean isFleetPaused();

    /** Who paused or resumed the whole fleet last (null: nobody yet). */
    String getFleetChangedBy();

    /**
     * Pauses every relay of the outbox and waits until each acknowledged (its batch in flight done), at most two
     * heartbeats and a few seconds. {@code requestedBy}: who asks, for the audit (1 to 200 characters; a JMX client
     * can give any name: the server's own audit of the JMX call is the authority). Returns who acknowledged.
     */
    String pauseAll(String requestedBy);

    /** Resumes every relay of the outbox (one paused on its own stays paused); as {@link #pauseAll}. */
    String resumeAll(String requestedBy);
}
