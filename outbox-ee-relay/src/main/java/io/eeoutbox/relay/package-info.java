/**
 * The relay's engine, free of any container: {@link io.eeoutbox.relay.OutboxRelay} claims committed
 * outbox rows with a lease (one short autocommit statement), hands them to a
 * {@link io.eeoutbox.spi.Publisher} with no database transaction open, and completes each batch in
 * one statement (marked or deleted), records failures with backoff in one statement, and releases
 * what it did not publish. Delivery is at least once: a row whose relay dies mid-batch is claimable
 * again when its lease ends, and no two live relays hold the same row at the same time.
 * {@link io.eeoutbox.relay.config.RelaySettings} declares every setting and its default;
 * {@link io.eeoutbox.relay.config.RelayConfig} holds the values in effect. The packages, one per step, are
 * listed in docs/development.md ("How the relay works inside").
 */
package io.eeoutbox.relay;
