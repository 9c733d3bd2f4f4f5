-- Tables the fault suite's hooks write into (io.eeoutbox.sample.fault.hook), created in each
-- scenario's database next to ee-outbox's and the sample's schema. Not part of the sample.

-- Every message the relay had accepted by the broker: by which relay, when (the relay JVM's clock).
CREATE TABLE fault_publish_log (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id     UUID         NOT NULL,
    seq          BIGINT       NOT NULL,
    aggregate_id VARCHAR(100),
    event_type   VARCHAR(100) NOT NULL,
    attempt      INT          NOT NULL,
    relay        VARCHAR(100) NOT NULL,
    published_at TIMESTAMPTZ  NOT NULL
);
CREATE INDEX idx_fault_publish_log_event ON fault_publish_log (event_id);

-- Every delivery to a message-driven bean whose transaction committed.
CREATE TABLE fault_delivery_log (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id     UUID         NOT NULL,
    server       VARCHAR(100) NOT NULL,
    redelivered  BOOLEAN      NOT NULL,
    delivered_at TIMESTAMPTZ  NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX idx_fault_delivery_log_event ON fault_delivery_log (event_id);
