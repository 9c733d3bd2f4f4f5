package io.eeoutbox.ops.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The relay's metrics as Prometheus scrapes them: WildFly's micrometer subsystem at
 * {@code /prometheus} on the management port, Open Liberty's mpMetrics at {@code /metrics?scope=application}.
 * Same names on both; the scraped {@code outbox_} lines are written to
 * {@code target/failsafe-reports/<server>/metrics-scrape.txt}.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class MetricsIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return OpsDeployment.war();
    }

    @Test
    void everyMetricIsScrapedUnderItsNameWithPlausibleValues() throws Exception {
        UUID published = OutboxDb.recordEvent("ops.metrics");
        String refusedType = "ops.refused.metrics";
        UUID refused = OutboxDb.recordEvent(refusedType);
        Eventually.until(() -> OutboxDb.processedAt(published), Optional::isPresent, "the event to be published");
        Eventually.until(() -> OutboxDb.deadAt(refused), Optional::isPresent, "the refused event to become a dead letter");

        // the gauges are refreshed every second (outbox.relay.metrics.refresh-interval=PT1S in the test WAR)
        Scrape scrape = Eventually.until(Scrape::now,
                s -> s.value("outbox_events_dead").orElse(0) >= 1
                        && s.value("outbox_events_failed_total", "event_type=\"" + refusedType + "\"").orElse(0) >= 2,
                "the dead letter and its two failed attempts in the scrape");
        write(scrape);
        RelayAdminJmxIT.report("scraped " + ServerUnderTest.current().metrics() + ": " + scrape.names());

        assertTrue(scrape.value("outbox_events_published_total").orElseThrow() >= 1, scrape.outboxLines());
        assertEquals(2.0, scrape.value("outbox_events_failed_total", "event_type=\"" + refusedType + "\"").orElseThrow(),
                "max-attempts=2: two failed attempts, then a dead letter");
        assertTrue(scrape.value("outbox_events_pending").orElseThrow() >= 0, scrape.outboxLines());
        assertTrue(scrape.value("outbox_events_dead").orElseThrow() >= 1, scrape.outboxLines());
        assertTrue(scrape.value("outbox_oldest_pending_age_seconds").orElseThrow() >= 0, scrape.outboxLines());
        assertTrue(scrape.value("outbox_batch_duration_seconds_count").orElseThrow() >= 2, scrape.outboxLines());
        assertTrue(scrape.value("outbox_batch_duration_seconds_sum").orElseThrow() > 0, scrape.outboxLines());
        assertTrue(scrape.value("outbox_batch_duration_seconds_max").orElseThrow() > 0, scrape.outboxLines());
        double p95 = scrape.value("outbox_batch_duration_p95_seconds").orElseThrow();
        assertTrue(p95 > 0 && p95 <= 60, "p95 of the last five minutes: " + p95);
        if (ServerUnderTest.current() == ServerUnderTest.LIBERTY) {
            // MicroProfile Metrics publishes the timer's buckets too (mp.metrics.distribution.timer.buckets in the jar)
            assertTrue(scrape.value("outbox_batch_duration_seconds_bucket", "le=\"+Inf\"").orElseThrow() >= 2,
                    scrape.outboxLines());
        }
        assertTrue(scrape.names().containsAll(List.of("outbox_events_published_total", "outbox_events_failed_total",
                "outbox_events_pending", "outbox_events_scheduled", "outbox_events_dead", "outbox_oldest_pending_age_seconds",
                "outbox_batch_duration_seconds_count", "outbox_batch_duration_seconds_sum",
                "outbox_batch_duration_seconds_max", "outbox_batch_duration_p95_seconds")), scrape.names().toString());
    }

    private static void write(Scrape scrape) throws Exception {
        Path dir = Path.of("target", "failsafe-reports", ServerUnderTest.current().name().toLowerCase());
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("metrics-scrape.txt"), "# " + ServerUnderTest.current().metrics() + "\n"
                + scrape.outboxLines());
    }
}
