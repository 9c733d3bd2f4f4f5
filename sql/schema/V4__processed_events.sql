-- ee-outbox schema, version 4: the consumer side's inbox. A consumer records each event id it
-- applies in the same transaction as its own writes; a redelivered event finds its id and is
-- skipped. The consumer name lets several consumers share one database.

CREATE TABLE processed_events (
    consumer     VARCHAR(100) NOT NULL,
    event_id     UUID         NOT NULL,
    processed_at TIMESTAMPTZ  NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, event_id)
);

CREATE INDEX idx_processed_events_processed_at ON processed_events (processed_at);
