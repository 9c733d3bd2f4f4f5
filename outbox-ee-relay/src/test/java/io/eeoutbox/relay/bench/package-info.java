/**
 * The benchmark of issue 7: ee-outbox's write overhead, drain rate against the reference article's
 * relay, commit-to-publish latency, idle cost and steady state, on a real PostgreSQL and a persistent
 * Artemis broker. {@link io.eeoutbox.relay.bench.Benchmark} is the entry point (the Maven profile
 * {@code benchmark} runs it; see {@code docs/benchmark.md}); {@code BenchmarkSmokeIT}
 * runs it at smoke size in CI and checks that no event is lost.
 */
package io.eeoutbox.relay.bench;
