package io.eeoutbox.relay;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.Publisher;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** Records what it was asked to publish; fails the messages a predicate picks. */
public class RecordingPublisher implements Publisher {

    public final List<OutboxMessage> published = Collections.synchronizedList(new ArrayList<>());
    public final List<List<OutboxMessage>> calls = Collections.synchronizedList(new ArrayList<>());
    private volatile Predicate<OutboxMessage> failing = m -> false;
    private volatile Consumer<List<OutboxMessage>> beforeBatch = b -> { };

    public RecordingPublisher failing(Predicate<OutboxMessage> failing) {
        this.failing = failing;
        return this;
    }

    public RecordingPublisher beforeBatch(Consumer<List<OutboxMessage>> hook) {
        this.beforeBatch = hook;
        return this;
    }

    @Override
    public io.eeoutbox.spi.PublishResult publishAll(List<OutboxMessage> batch) {
        calls.add(List.copyOf(batch));
        beforeBatch.accept(batch);
        return Publisher.super.publishAll(batch);
    }

    @Override
    public void publish(OutboxMessage message) {
        if (failing.test(message)) {
            throw new IllegalStateException("rejected " + message.eventType());
        }
        published.add(message);
    }
}
