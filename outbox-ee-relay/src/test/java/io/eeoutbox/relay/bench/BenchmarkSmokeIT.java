package io.eeoutbox.relay.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The benchmark at smoke size, as CI runs it: it must work end to end and lose no event. Speed is
 * not asserted (CI machines are too noisy for that); the full run is a separate command.
 */
class BenchmarkSmokeIT {

    @Test
    void theSmokeBenchmarkRunsEverySectionAndLosesNoEvent() throws Exception {
        Path out = Path.of("target", "benchmark-smoke");
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        java.util.logging.Level level = root.getLevel();
        Results results;
        try {
            Benchmark.quietLogging();
            results = Benchmark.run(BenchSettings.smoke(out));
        } finally {
            root.setLevel(level);
        }

        assertThat(results.checks()).as("delivery checks").isNotEmpty();
        assertThat(results.checks()).as("every event published at least once, none lost or unexpected")
                .allSatisfy(c -> assertThat(c.passed()).as(c.toString()).isTrue());
        assertThat(results.sectionsWithFigures()).as("every section produced figures").containsExactlyInAnyOrder(1, 2, 3, 4, 5);
        assertThat(results.figures()).as("every figure has a value (CPU shares need /proc, so only on Linux)")
                .filteredOn(f -> !f.metric().endsWith("CPU"))
                .allSatisfy(f -> assertThat(f.median()).as(f.scenario() + ": " + f.metric()).isFinite());
        assertThat(results.targets()).as("every target was evaluated").isNotEmpty()
                .allSatisfy(t -> assertThat(t.measured()).as(t.name()).isFinite());
        assertThat(out.resolve("results.md")).exists();
        assertThat(Files.readString(out.resolve("results.csv"))).contains("drain rate");
    }
}
