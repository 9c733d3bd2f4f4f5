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
        // Figures, not speed: a section counts when it measured something (a window of a smoke run on a
        // busy CI machine may see too few transactions for a percentile, which is not a failure).
        assertThat(results.sectionsWithFigures()).as("every section produced figures").containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6, 7, 8);
        for (int section = 1; section <= 8; section++) {
            int s = section;
            assertThat(results.figures()).as("section " + s + " has a measured value")
                    .anySatisfy(f -> assertThat(f.section() == s && Double.isFinite(f.median())).isTrue());
        }
        assertThat(results.figures()).as("every drain produced a rate")
                .filteredOn(f -> f.metric().equals("drain rate"))
                .isNotEmpty()
                .allSatisfy(f -> assertThat(f.median()).as(f.scenario()).isPositive());
        assertThat(results.targets()).as("the targets are reported").isNotEmpty();
        assertThat(out.resolve("results.md")).exists();
        assertThat(Files.readString(out.resolve("results.csv"))).contains("drain rate");
    }
}
