-- ee-outbox schema, version 1: the outbox table, its indexes and queue-friendly storage settings.
-- Apply with Flyway/Liquibase or `psql -f`. The library never migrates a database by itself.

CREATE TABLE outbox_events (
    id             UUID         PRIMARY KEY DEFAULT gen_random_uuid(),
    -- Write order. created_at is the transaction start time and ties inside one transaction;
    -- seq does not, so claims and per-aggregate ordering use it.
    seq            BIGINT       GENERATED ALWAYS AS IDENTITY,
    aggregate_type VARCHAR(100) NOT NULL,
    aggregate_id   VARCHAR(100) NOT NULL,
    event_type     VARCHAR(100) NOT NULL,
    payload        JSONB        NOT NULL,
    attempts       INT          NOT NULL DEFAULT 0,
    created_at     TIMESTAMPTZ  NOT NULL DEFAULT now(),
    -- Backoff: a failed row is not claimed again before this instant (NULL: at once).
    retry_after    TIMESTAMPTZ,
    -- Lease of the relay that claimed the row. A row whose lease has expired is claimable again,
    -- so a relay that dies mid-batch never strands its rows.
    claim_token    UUID,
    locked_until   TIMESTAMPTZ,
    last_error     VARCHAR(1000),
    -- Set when the last allowed attempt failed: the row is a dead letter and is never retried
    -- automatically (see outbox_dead_letters).
    dead_at        TIMESTAMPTZ,
    processed_at   TIMESTAMPTZ,
    CONSTRAINT outbox_events_attempts_nonnegative CHECK (attempts >= 0)
);

-- Partial index: only pending rows, so it stays small however many events were ever published.
-- The claim walks it in write order.
CREATE INDEX idx_outbox_unprocessed
    ON outbox_events (seq)
    WHERE processed_at IS NULL;

-- Ordered mode: "is there an earlier pending event of the same aggregate?"
CREATE INDEX idx_outbox_aggregate_pending
    ON outbox_events (aggregate_type, aggregate_id, seq)
    WHERE processed_at IS NULL;

-- Cleanup of published rows in bounded batches, oldest first.
CREATE INDEX idx_outbox_processed
    ON outbox_events (processed_at)
    WHERE processed_at IS NOT NULL;

-- A queue table: rows are inserted, updated once or twice and deleted. Vacuum and analyze it far
-- more often than the defaults (20% / 10% of the table) so dead tuples do not slow every poll and
-- the planner keeps fresh statistics. fillfactor leaves room for HOT updates of the lease columns.
ALTER TABLE outbox_events SET (
    fillfactor = 80,
    autovacuum_vacuum_scale_factor = 0.01,
    autovacuum_vacuum_threshold = 1000,
    autovacuum_vacuum_insert_scale_factor = 0.05,
    autovacuum_analyze_scale_factor = 0.02,
    autovacuum_analyze_threshold = 1000,
    autovacuum_vacuum_cost_delay = 0
);
