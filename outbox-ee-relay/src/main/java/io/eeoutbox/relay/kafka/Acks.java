package io.eeoutbox.relay.kafka;

import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Callback;

/**
 * The acknowledgements of one batch's records, and the wait for them. The wait ends when every record is
 * answered, at the batch's deadline, or once some record was acknowledged and no further answer came for the
 * straggler wait: the cluster works, so what is still unanswered waits on its partition (no leader, too few
 * in-sync replicas), and the batch does not wait out the delivery timeout for it while the rest of the outbox
 * could flow (docs/decisions/0015-a-full-destination-is-an-outage.md).
 *
 * <p>Each record's answer is taken from its callback, not from its future: the producer completes a whole
 * request's futures only after every callback of that request has run, so a future may still look undone when
 * its callback has answered.
 */
final class Acks {

    private final Object lock = new Object();
    private final java.util.Map<Integer, Exception> answers = new java.util.HashMap<>(); // guarded by lock; null: acked
    private int acknowledged; // guarded by lock
    private long lastAnswerAt; // guarded by lock, a nanoTime value

    /** The callback to pass with the send of the batch's record number {@code index}. */
    Callback callback(int index) {
        return (metadata, exception) -> {
            synchronized (lock) {
                if (answers.containsKey(index)) {
                    return;
                }
                answers.put(index, exception);
                if (exception == null) {
                    acknowledged++;
                }
                lastAnswerAt = System.nanoTime();
                lock.notifyAll();
            }
        };
    }

    /** Whether record {@code index} was answered (acknowledged or failed). */
    boolean answered(int index) {
        synchronized (lock) {
            return answers.containsKey(index);
        }
    }

    /** Record {@code index}'s failure, or null when it was acknowledged (or not answered). */
    Exception failure(int index) {
        synchronized (lock) {
            return answers.get(index);
        }
    }

    /**
     * Waits until {@code records} answers came, {@code deadline} (a nanoTime value) passed, or {@code stragglerNanos}
     * passed since the last answer while at least one record was acknowledged.
     */
    void await(int records, long deadline, long stragglerNanos) throws InterruptedException {
        synchronized (lock) {
            while (answers.size() < records) {
                long until = acknowledged > 0 ? Math.min(deadline, lastAnswerAt + stragglerNanos) : deadline;
                long left = until - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                TimeUnit.NANOSECONDS.timedWait(lock, left);
            }
        }
    }

    /** How many records were answered so far. */
    int answeredCount() {
        synchronized (lock) {
            return answers.size();
        }
    }

    /** Whether the cluster acknowledged at least one record of the batch. */
    boolean anyAcknowledged() {
        synchronized (lock) {
            return acknowledged > 0;
        }
    }
}
