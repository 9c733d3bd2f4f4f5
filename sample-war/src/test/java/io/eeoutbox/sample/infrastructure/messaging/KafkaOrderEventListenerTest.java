package io.eeoutbox.sample.infrastructure.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the sample's Kafka consumer logs while a record fails, and how long it waits after failed polls. */
class KafkaOrderEventListenerTest {

    private final Logger logger = Logger.getLogger(KafkaOrderEventListener.class.getName());
    private final List<LogRecord> records = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Level previous;

    @BeforeEach
    void capture() {
        previous = logger.getLevel();
        logger.setLevel(Level.ALL);
        logger.addHandler(capture);
    }

    @AfterEach
    void release() {
        logger.removeHandler(capture);
        logger.setLevel(previous);
    }

    @Test
    void aRecordThatKeepsFailingIsAWarningAtItsFirstTryAndThenOnceAMinuteNotEverySecond() {
        KafkaOrderEventListener listener = new KafkaOrderEventListener();
        ConsumerRecord<String, String> bad = new ConsumerRecord<>("order-events", 0, 42L, "order-1", "{}");
        for (int i = 0; i < 180; i++) { // three minutes of tries, one a second
            listener.logNotApplied(bad, new IllegalStateException("the projection's database is read-only"));
        }
        List<String> warnings = records.stream().filter(r -> r.getLevel() == Level.WARNING).map(LogRecord::getMessage).toList();
        assertEquals(4, warnings.size(), String.valueOf(warnings)); // tries 1, 60, 120, 180
        assertEquals(true, warnings.get(0).contains("order-events-0@42") && warnings.get(0).contains("(1 tries;"),
                warnings.get(0));
        assertEquals(true, warnings.get(3).contains("(180 tries;"), warnings.get(3));
        assertEquals(176, records.stream().filter(r -> r.getLevel() == Level.FINE).count());
    }

    @Test
    void failedPollsWaitLongerEachTimeUpToHalfAMinute() {
        assertEquals(Duration.ofSeconds(1), KafkaOrderEventListener.pauseAfter(1));
        assertEquals(Duration.ofSeconds(2), KafkaOrderEventListener.pauseAfter(2));
        assertEquals(Duration.ofSeconds(16), KafkaOrderEventListener.pauseAfter(5));
        assertEquals(Duration.ofSeconds(30), KafkaOrderEventListener.pauseAfter(6));
        assertEquals(Duration.ofSeconds(30), KafkaOrderEventListener.pauseAfter(1000));
    }
}
