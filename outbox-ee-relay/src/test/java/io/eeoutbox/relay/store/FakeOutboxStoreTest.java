package io.eeoutbox.relay.store;

import java.time.Instant;
import java.util.UUID;

/** The {@link OutboxStore} contract on {@link FakeOutboxStore}, the drain's unit tests' outbox. */
class FakeOutboxStoreTest extends OutboxStoreContract {

    private final FakeOutboxStore store = new FakeOutboxStore();

    @Override
    protected OutboxStore store() {
        return store;
    }

    @Override
    protected UUID insert(String aggregateType, String aggregateId, String eventType, String payload) {
        FakeOutboxStore.Row row = store.insert(aggregateType, aggregateId, eventType);
        row.payload = payload;
        return row.id;
    }

    @Override
    protected UUID insertAt(String aggregateType, String aggregateId, String eventType, String payload, Instant notBefore) {
        return store.insertAt(aggregateType, aggregateId, eventType, payload, notBefore);
    }
}
