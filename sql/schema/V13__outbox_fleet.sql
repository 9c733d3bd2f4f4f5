-- ee-outbox schema, version 13: every relay of the outbox in one view, and pause all / resume all.
--
-- outbox_relays has one row per relay that uses this outbox, written by the relay itself: one statement every
-- outbox.relay.fleet.heartbeat-interval (5 s by default), none per event. The row's key is the server (its host
-- and node name), the application and the relay's name, so a redeployed application takes its row back and two
-- servers whose relays have the same outbox.relay.name keep apart. last_seen is the database's clock (V9): a relay
-- whose last_seen is older than three of its own intervals is shown missing; relays delete rows unseen for longer
-- than outbox.relay.fleet.retention (PT1H), so the table stays as small as the fleet. Its rows are updated in place
-- every few seconds: fillfactor 50 leaves room for HOT updates.
--
-- outbox_fleet_control has exactly one row: whether the whole fleet is paused, by whom, and an epoch that every
-- change increments. A relay reads it in its heartbeat, with FOR SHARE, so a change and a relay's heartbeat are
-- serialized: a pause-all either sees the relay's row when it looks for acknowledgements, or the relay's heartbeat
-- reads the pause. A relay acknowledges an epoch (fleet_epoch_seen) only once it has applied it: after a pause,
-- once the batch it was publishing is complete, so no relay publishes after it has acknowledged a pause.
--
-- Relays of earlier versions neither write rows nor honour the fleet's pause: upgrade every relay before relying
-- on pause-all (docs/operations.md, "Every relay of the outbox").

CREATE TABLE outbox_relays (
    server           varchar(200) NOT NULL,
    application      varchar(200) NOT NULL,
    relay_name       varchar(100) NOT NULL,
    instance         uuid         NOT NULL,
    started_at       timestamptz  NOT NULL,
    last_seen        timestamptz  NOT NULL DEFAULT now(),
    interval_ms      bigint       NOT NULL CHECK (interval_ms > 0),
    state            varchar(40)  NOT NULL,
    paused_local     boolean      NOT NULL,
    published        bigint       NOT NULL,
    failed           bigint       NOT NULL,
    dead_lettered    bigint       NOT NULL,
    last_error       varchar(200),
    fleet_epoch_seen bigint       NOT NULL,
    PRIMARY KEY (server, application, relay_name)
) WITH (fillfactor = 50);

COMMENT ON TABLE outbox_relays IS
    'ee-outbox relays of this outbox (V13): one row each, written by its heartbeat; missing after three intervals';

CREATE TABLE outbox_fleet_control (
    id         smallint     NOT NULL PRIMARY KEY CHECK (id = 1),
    paused     boolean      NOT NULL DEFAULT false,
    epoch      bigint       NOT NULL DEFAULT 0,
    changed_by varchar(200),
    changed_at timestamptz
);

INSERT INTO outbox_fleet_control (id) VALUES (1);

COMMENT ON TABLE outbox_fleet_control IS
    'ee-outbox fleet control (V13): one row; paused = every relay of this outbox claims nothing';
