-- The downstream consumer's tables (the message-driven bean plays another service that happens to
-- share the database): what it learned from the order events it received.
-- order_projection: one row per order, the latest state the consumer knows.
-- order_projection_events: every event the consumer applied, in the order it applied them
-- (position 1, 2, ...), so a reader can check that an order's events arrived in write order.
-- A redelivered event is absorbed by ee-outbox's inbox (processed_events) and appears nowhere here.

CREATE TABLE order_projection (
    order_id       UUID          PRIMARY KEY,
    customer_id    VARCHAR(100),
    total          NUMERIC(12,2),
    status         VARCHAR(20)   NOT NULL,
    revision       INT           NOT NULL,
    events_applied INT           NOT NULL,
    updated_at     TIMESTAMPTZ   NOT NULL
);

CREATE TABLE order_projection_events (
    event_id   UUID         PRIMARY KEY,
    order_id   UUID         NOT NULL REFERENCES order_projection (order_id),
    position   INT          NOT NULL,
    event_type VARCHAR(100) NOT NULL,
    revision   INT          NOT NULL,
    status     VARCHAR(20)  NOT NULL,
    applied_at TIMESTAMPTZ  NOT NULL,
    CONSTRAINT order_projection_events_position UNIQUE (order_id, position)
);
