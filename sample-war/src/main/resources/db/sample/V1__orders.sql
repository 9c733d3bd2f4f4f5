-- The sample's own tables, applied after ee-outbox's migrations (db/ee-outbox/V*.sql).
-- orders: the order service's state. Every change of a row also writes an outbox event in the
-- same transaction (order.created, order.status-changed); revision counts those changes, so the
-- n-th event of an order carries revision n.

CREATE TABLE orders (
    id          UUID          PRIMARY KEY,
    customer_id VARCHAR(100)  NOT NULL,
    total       NUMERIC(12,2) NOT NULL,
    status      VARCHAR(20)   NOT NULL,
    revision    INT           NOT NULL,
    created_at  TIMESTAMPTZ   NOT NULL,
    updated_at  TIMESTAMPTZ   NOT NULL,
    CONSTRAINT orders_total_nonnegative CHECK (total >= 0),
    CONSTRAINT orders_revision_positive CHECK (revision >= 1)
);
