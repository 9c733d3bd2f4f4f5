-- The sample's own table, applied after ee-outbox's migrations (db/ee-outbox/V*.sql).
-- probe_items: rows written by the in-server probe (REST -> EJB -> JPA, and the MDB).

CREATE TABLE probe_items (
    id         UUID         PRIMARY KEY,
    label      VARCHAR(200) NOT NULL,
    source     VARCHAR(20)  NOT NULL,
    created_at TIMESTAMPTZ  NOT NULL DEFAULT now()
);
