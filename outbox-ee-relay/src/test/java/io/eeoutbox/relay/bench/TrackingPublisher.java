package io.eeoutbox.relay.bench;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.PublishResult;
import io.eeoutbox.spi.Publisher;
import java.util.List;

/**
 * Records every message its delegate accepted in a {@link PublishLog}. Without a delegate it is the
 * benchmark's no-op publisher: it accepts everything at once, so a drain into it measures the
 * database side alone.
 */
final class TrackingPublisher implements Publisher {

    private final Publisher delegate; // null: no-op
    private final PublishLog log;

    TrackingPublisher(Publisher delegate, PublishLog log) {
        this.delegate = delegate;
        this.log = log;
    }

    static TrackingPublisher noOp(PublishLog log) {
        return new TrackingPublisher(null, log);
    }

    @Override
    public void publish(OutboxMessage message) throws Exception {
        if (delegate != null) {
            long t0 = System.nanoTime();
            delegate.publish(message);
            log.call(System.nanoTime() - t0);
        }
        log.published(message.id(), System.nanoTime());
    }

    @Override
    public PublishResult publishAll(List<OutboxMessage> batch) {
        PublishResult result;
        if (delegate == null) {
            result = PublishResult.allPublished();
        } else {
            long t0 = System.nanoTime();
            result = delegate.publishAll(batch);
            log.call(System.nanoTime() - t0);
        }
        long now = System.nanoTime();
        for (OutboxMessage m : batch) {
            if (!result.isFailed(m.id())) {
                log.published(m.id(), now);
            }
        }
        return result;
    }

    @Override
    public String describe() {
        return delegate == null ? "no-op" : delegate.describe();
    }
}
