package io.eeoutbox.sample.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The README's one-shot demo, run as exec:java runs it: {@link Demo} in a thread group of its own. It must end
 * cleanly: the 100 orders through, and within 5 s of the {@code demo: ...} line no server process and no thread of
 * the group left, ended by the demo itself, without the interruption exec:java would try (after which it waits 15 s
 * for each thread, warns that it "will linger" and prints an IllegalThreadStateException). On WildFly, with the
 * server's JMS broker and with the in-process Kafka broker.
 *
 * <p>Run by the execution {@code demo} of the wildfly profile (sample-war/pom.xml), which provisions the server.
 */
@Tag("demo")
class DemoStopIT {

    /** From the {@code demo: ...} line to the last thread gone; the bound for the demo's end. */
    private static final Duration STOP_BUDGET = Duration.ofSeconds(5);

    @ParameterizedTest(name = "publisher {0}")
    @ValueSource(strings = {"jms", "kafka"})
    void theOneShotDemoLeavesNoThreadAndNoProcessWithinFiveSeconds(String publisher) throws Exception {
        required("demo.war");
        required("demo.work-dir");
        required("wildfly.home");
        Map<String, String> settings = Map.of(
                "demo.server", "wildfly",
                "demo.publisher", publisher,
                // beside the in-server suite's WildFly (offset 1100), should it still run
                "demo.port-offset", String.valueOf(DemoServer.freeOffset(true, 2000, 100)));
        settings.forEach(System::setProperty);
        AtomicLong resultPrinted = new AtomicLong();
        PrintStream out = System.out;
        System.setOut(new PrintStream(new LineWatcher(out, line -> line.startsWith("demo: orders="), resultPrinted),
                true, StandardCharsets.UTF_8));
        ThreadGroup group = new ThreadGroup("demo-" + publisher);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try {
            Thread main = new Thread(group, () -> {
                try {
                    Demo.run(true);
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "demo-main");
            main.start();
            main.join(TimeUnit.MINUTES.toMillis(10));
            assertTrue(!main.isAlive(), "the demo did not end within 10 minutes");
        } finally {
            System.setOut(out);
            settings.keySet().forEach(System::clearProperty);
        }
        assertNull(failure.get(), () -> "the demo failed: " + failure.get());
        assertTrue(resultPrinted.get() != 0, "no demo: orders=... line");

        // exec:java would now wait for the non-daemon threads, then interrupt the daemon ones and give each 15 s: the
        // demo's threads must all end by themselves, without either
        long deadline = resultPrinted.get() + STOP_BUDGET.toNanos();
        for (Thread t : live(group)) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        List<String> lingering = live(group).stream().map(t -> t.getName() + (t.isDaemon() ? " (daemon)" : "")).toList();
        Duration stop = Duration.ofNanos(System.nanoTime() - resultPrinted.get());
        System.out.println("[demo-stop] publisher " + publisher + ": from the demo line to the last thread gone "
                + stop.toMillis() + " ms; still running: " + lingering);
        assertEquals(List.of(), lingering, "threads the demo left running");
        assertTrue(stop.compareTo(STOP_BUDGET) <= 0, "the demo took " + stop.toMillis() + " ms to stop after its result line");
        assertEquals(List.of(), DemoServer.stillRunning(), "server processes still running");
    }

    private static List<Thread> live(ThreadGroup group) {
        Thread[] threads = new Thread[group.activeCount() + 16];
        int n = group.enumerate(threads, true);
        return Arrays.stream(threads, 0, n).filter(Thread::isAlive).toList();
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        assertNotNull(value, property + " is not set: run this test through the build (the wildfly profile's execution demo)");
        return value;
    }

    /** Passes everything through, and notes when a line matching {@code wanted} was first written. */
    private static final class LineWatcher extends OutputStream {

        private final OutputStream target;
        private final Predicate<String> wanted;
        private final AtomicLong seenAt;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        LineWatcher(OutputStream target, Predicate<String> wanted, AtomicLong seenAt) {
            this.target = target;
            this.wanted = wanted;
            this.seenAt = seenAt;
        }

        @Override
        public synchronized void write(int b) throws java.io.IOException {
            target.write(b);
            if (b == '\n') {
                if (seenAt.get() == 0 && wanted.test(line.toString(StandardCharsets.UTF_8))) {
                    seenAt.set(System.nanoTime());
                }
                line.reset();
            } else {
                line.write(b);
            }
        }

        @Override
        public void flush() throws java.io.IOException {
            target.flush();
        }
    }
}
