package io.eeoutbox.relay;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.Publisher;

/**
 * What is particular to {@code outbox.relay.mode=cdc} (docs/cdc.md, "Cleaning the table: cdc mode"): a CDC connector
 * publishes, so the relay claims nothing ({@code OutboxRelay}'s drains only promote due delayed events, whether or not
 * ordered mode's index exists), does not
 * LISTEN ({@code RelayConfig.notifyEnabled()}), deletes rows after {@code outbox.relay.cdc.retention}
 * ({@code OutboxCleaner.cdcRetention}) and needs no publisher: {@link #NO_PUBLISHER} stands in.
 */
public final class CdcMode {

    /** The publisher of a relay in cdc mode: it is never called, since such a relay claims nothing. */
    public static final Publisher NO_PUBLISHER = new Publisher() {
        @Override
        public void publish(OutboxMessage message) {
            throw new IllegalStateException("outbox.relay.mode=cdc: the relay publishes nothing, a CDC connector does");
        }

        @Override
        public String describe() {
            return "none (outbox.relay.mode=cdc: a CDC connector publishes)";
        }
    };

    private CdcMode() {
    }
}
