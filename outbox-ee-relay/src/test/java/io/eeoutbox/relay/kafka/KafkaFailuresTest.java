package io.eeoutbox.relay.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.relay.kafka.KafkaFailures.Verdict;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

/** Which failures count against the event and which are the cluster's (see the real-broker cases in KafkaPublisherIT). */
class KafkaFailuresTest {

    @Test
    void whatTheClusterRefusesFailsTheRecord() {
        assertThat(KafkaFailures.classify(new RecordTooLargeException("too large"))).isEqualTo(Verdict.REFUSED);
        assertThat(KafkaFailures.classify(new TopicAuthorizationException("no"))).isEqualTo(Verdict.REFUSED);
        // a cluster ACL is missing: no record can go, none is at fault
        assertThat(KafkaFailures.classify(new ClusterAuthorizationException("no"))).isEqualTo(Verdict.UNAVAILABLE);
        assertThat(KafkaFailures.classify(new InvalidTopicException("bad"))).isEqualTo(Verdict.REFUSED);
        // what a compacted topic answers to a record without a key, for one
        assertThat(KafkaFailures.classify(new org.apache.kafka.common.InvalidRecordException("no key"))).isEqualTo(Verdict.REFUSED);
        assertThat(KafkaFailures.classify(new SerializationException("bad"))).isEqualTo(Verdict.REFUSED);
        assertThat(KafkaFailures.classify(new ExecutionException(new RecordTooLargeException("wrapped"))))
                .isEqualTo(Verdict.REFUSED);
    }

    @Test
    void anUnreachableOrStrugglingClusterIsUnavailable() {
        assertThat(KafkaFailures.classify(new TimeoutException("Expiring 3 record(s)"))).isEqualTo(Verdict.UNAVAILABLE);
        assertThat(KafkaFailures.classify(new NetworkException("gone"))).isEqualTo(Verdict.UNAVAILABLE);
        assertThat(KafkaFailures.classify(new NotEnoughReplicasException("isr"))).isEqualTo(Verdict.UNAVAILABLE);
        assertThat(KafkaFailures.classify(new NotLeaderOrFollowerException("moved"))).isEqualTo(Verdict.UNAVAILABLE);
        // Kafka declares it retriable (damaged in transit): the cluster's, not the event's
        assertThat(KafkaFailures.classify(new CorruptRecordException("crc"))).isEqualTo(Verdict.UNAVAILABLE);
        assertThat(KafkaFailures.classify(new SaslAuthenticationException("bad password"))).isEqualTo(Verdict.UNAVAILABLE);
        assertThat(KafkaFailures.classify(new InterruptException("stopping"))).isEqualTo(Verdict.UNAVAILABLE);
        Thread.interrupted(); // InterruptException sets the flag
        assertThat(KafkaFailures.classify(new java.util.concurrent.TimeoutException())).isEqualTo(Verdict.UNAVAILABLE);
    }

    @Test
    void aClientThatCannotSendAnyMoreIsReplaced() {
        assertThat(KafkaFailures.classify(new OutOfOrderSequenceException("seq"))).isEqualTo(Verdict.PRODUCER_BROKEN);
        assertThat(KafkaFailures.classify(new IllegalStateException("Cannot perform operation after producer has been closed")))
                .isEqualTo(Verdict.PRODUCER_BROKEN);
        assertThat(KafkaFailures.classify(new KafkaException("fatal"))).isEqualTo(Verdict.PRODUCER_BROKEN);
    }

    @Test
    void onlyAMetadataTimeoutMayMeanAMissingTopic() {
        assertThat(KafkaFailures.mayBeMissingTopic(new TimeoutException("Topic events.ghost not present in metadata after 3000 ms.")))
                .isTrue();
        assertThat(KafkaFailures.mayBeMissingTopic(new TimeoutException("Expiring 3 record(s) for t-0"))).isFalse();
        assertThat(KafkaFailures.mayBeMissingTopic(new RecordTooLargeException("not present in metadata"))).isFalse();
    }
}
