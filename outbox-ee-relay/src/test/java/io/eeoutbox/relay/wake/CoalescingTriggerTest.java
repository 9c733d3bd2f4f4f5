package io.eeoutbox.relay.wake;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CoalescingTriggerTest {

    /** Runs submitted tasks only when the test says so. */
    static final class ManualExecutor implements Executor {
        final Queue<Runnable> queue = new ArrayDeque<>();

        @Override
        public void execute(Runnable command) {
            queue.add(command);
        }

        void runAll() {
            Runnable r;
            while ((r = queue.poll()) != null) {
                r.run();
            }
        }
    }

    @Test
    void requestsWhileATaskIsPendingAreAbsorbed() {
        ManualExecutor executor = new ManualExecutor();
        AtomicInteger runs = new AtomicInteger();
        CoalescingTrigger trigger = new CoalescingTrigger(executor, runs::incrementAndGet);
        for (int i = 0; i < 100; i++) {
            trigger.request();
        }
        assertThat(executor.queue).hasSize(1);
        executor.runAll();
        assertThat(runs).hasValue(1);
        assertThat(trigger.isIdle()).isTrue();
    }

    @Test
    void requestsWhileRunningCauseExactlyOneMoreRun() {
        ManualExecutor executor = new ManualExecutor();
        AtomicInteger runs = new AtomicInteger();
        CoalescingTrigger[] self = new CoalescingTrigger[1];
        self[0] = new CoalescingTrigger(executor, () -> {
            if (runs.incrementAndGet() == 1) {
                for (int i = 0; i < 50; i++) {
                    self[0].request(); // a burst of wake-ups during the first run
                }
            }
        });
        self[0].request();
        executor.runAll();
        assertThat(runs).hasValue(2);
        assertThat(executor.queue).isEmpty();
        assertThat(self[0].isIdle()).isTrue();
    }

    @Test
    void afterIdleANewRequestRunsAgain() throws Exception {
        ManualExecutor executor = new ManualExecutor();
        AtomicInteger runs = new AtomicInteger();
        CoalescingTrigger trigger = new CoalescingTrigger(executor, runs::incrementAndGet);
        trigger.request();
        executor.runAll();
        trigger.request();
        assertThat(trigger.awaitIdle(Duration.ZERO)).isFalse();
        executor.runAll();
        assertThat(runs).hasValue(2);
        assertThat(trigger.awaitIdle(Duration.ZERO)).isTrue();
    }

    @Test
    void aTaskThatThrowsLeavesTheTriggerUsable() {
        ManualExecutor executor = new ManualExecutor();
        AtomicInteger runs = new AtomicInteger();
        CoalescingTrigger trigger = new CoalescingTrigger(executor, () -> {
            runs.incrementAndGet();
            throw new IllegalStateException("boom");
        });
        trigger.request();
        executor.runAll();
        trigger.request();
        executor.runAll();
        assertThat(runs).hasValue(2);
        assertThat(trigger.isIdle()).isTrue();
    }
}
