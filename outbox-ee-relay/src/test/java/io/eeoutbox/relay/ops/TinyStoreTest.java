package io.eeoutbox.relay.ops;

import io.eeoutbox.relay.store.OutboxStore;
import io.eeoutbox.relay.store.OutboxStoreContract;
import java.time.Instant;
import java.util.UUID;

/** The {@link OutboxStore} contract on {@link TinyStore}, the operations tests' outbox. */
class TinyStoreTest extends OutboxStoreContract {

    private final TinyStore store = new TinyStore();

    @Override
    protected OutboxStore store() {
        return store;
    }

    @Override
    protected UUID insert(String aggregateType, String aggregateId, String eventType, String payload) {
        return store.insert(aggregateType, aggregateId, eventType, payload, Instant.now());
    }

    @Override
    protected UUID insertAt(String aggregateType, String aggregateId, String eventType, String payload, Instant notBefore) {
        return store.insertAt(aggregateType, aggregateId, eventType, payload, notBefore);
    }
}
