package io.eeoutbox.relay.kafka;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.LeaderNotAvailableException;
import org.apache.kafka.common.errors.NotEnoughReplicasAfterAppendException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownProducerIdException;

/**
 * Tells a failure of the cluster from a failure of one record.
 *
 * <ul>
 *   <li>{@link Verdict#UNAVAILABLE}: nothing is wrong with the record: the cluster cannot be reached, did not
 *       answer in time, or answered with a retriable error (no leader, not enough in-sync replicas, a network
 *       error); authentication failed (a credential problem, not an event's); the producer is not authorised on
 *       the cluster (a cluster ACL missing: every record would fail, none by its own fault); the
 *       wait was interrupted. The relay
 *       retries such events without counting an attempt.</li>
 *   <li>{@link Verdict#REFUSED}: the cluster refused this record: too large, not authorised for the topic, an
 *       invalid record or topic, a policy; the record alone fails and the attempt counts.</li>
 *   <li>{@link Verdict#PRODUCER_BROKEN}: the client itself is in a state it cannot send from (closed, or an
 *       idempotence error it does not recover from): the batch is unavailable and the publisher makes a new
 *       producer for the next batch.</li>
 * </ul>
 * "Topic not present in metadata" is a timeout for both an unreachable cluster and a topic that does not exist
 * while auto-creation is off; {@link KafkaPublisher} asks the cluster which of the two it is.
 */
final class KafkaFailures {

    enum Verdict { UNAVAILABLE, REFUSED, PRODUCER_BROKEN }

    private KafkaFailures() {
    }

    static Throwable unwrap(Throwable t) {
        Throwable c = t;
        while ((c instanceof ExecutionException || c instanceof CompletionException) && c.getCause() != null) {
            c = c.getCause();
        }
        return c;
    }

    static Verdict classify(Throwable failure) {
        Throwable t = unwrap(failure);
        if (t instanceof OutOfOrderSequenceException || t instanceof UnknownProducerIdException
                || t instanceof InvalidProducerEpochException || t instanceof ProducerFencedException) {
            return Verdict.PRODUCER_BROKEN;
        }
        if (t instanceof RetriableException || t instanceof AuthenticationException || t instanceof ClusterAuthorizationException
                || t instanceof InterruptException
                || t instanceof InterruptedException || t instanceof java.util.concurrent.TimeoutException) {
            return Verdict.UNAVAILABLE;
        }
        if (t instanceof AuthorizationException || t instanceof ApiException || t instanceof SerializationException) {
            return Verdict.REFUSED;
        }
        if (t instanceof KafkaException || t instanceof IllegalStateException) {
            return Verdict.PRODUCER_BROKEN;
        }
        // anything else (an error of the JVM, a bug): not the event's fault; retried without counting
        return Verdict.UNAVAILABLE;
    }

    /**
     * A failure of the record's partition rather than of the cluster: no leader, a leader that moved, too few
     * in-sync replicas. The topic's other records may fail the same way; other topics are not concerned.
     */
    static boolean isPartitionOutage(Throwable failure) {
        Throwable t = unwrap(failure);
        return t instanceof NotEnoughReplicasException || t instanceof NotEnoughReplicasAfterAppendException
                || t instanceof NotLeaderOrFollowerException || t instanceof LeaderNotAvailableException;
    }

    /** A timeout that may mean "this topic does not exist": worth asking the cluster about the topic. */
    static boolean mayBeMissingTopic(Throwable failure) {
        Throwable t = unwrap(failure);
        return t instanceof TimeoutException && t.getMessage() != null && t.getMessage().contains("not present in metadata");
    }
}
