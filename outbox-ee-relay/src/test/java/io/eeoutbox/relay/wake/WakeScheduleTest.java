package io.eeoutbox.relay.wake;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WakeScheduleTest {

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);

    @AfterEach
    void shutDown() {
        executor.shutdownNow();
    }

    /** A relay whose looks each ask for another, as a busy relay's drains do, {@code looks} times in all. */
    private static class BusyRelay implements WakeSchedule.Callbacks {
        final AtomicInteger woken = new AtomicInteger();
        final CountDownLatch done;
        WakeSchedule schedule;

        BusyRelay(int looks) {
            done = new CountDownLatch(looks);
        }

        @Override
        public Duration pollInterval() {
            return Duration.ofMinutes(10);
        }

        @Override
        public long lastDrainEndNanos() {
            return System.nanoTime();
        }

        @Override
        public boolean stopping() {
            return false;
        }

        @Override
        public void wakeUp() {
            woken.incrementAndGet();
            done.countDown();
            if (done.getCount() > 0) {
                // asked from inside the look that is firing: its task is not done yet
                schedule.followUp(Duration.ofMillis(5));
            }
        }

        @Override
        public void drainSoon() {
            wakeUp();
        }

        @Override
        public void pollDue() {
        }
    }

    @Test
    void aLookAskedForWhileTheLastOneFiresIsNotDropped() throws InterruptedException {
        BusyRelay relay = new BusyRelay(3);
        relay.schedule = new WakeSchedule("busy", executor, System::nanoTime, relay);
        relay.schedule.followUp(Duration.ofMillis(5));
        assertThat(relay.done.await(5, TimeUnit.SECONDS))
                .as("looks after 5 s (the fallback poll is 10 min away): %s", relay.woken).isTrue();
    }

    @Test
    void aLaterLookIsAbsorbedByAnEarlierOneNotYetStarted() throws InterruptedException {
        BusyRelay relay = new BusyRelay(1) {
            @Override
            public void wakeUp() {
                woken.incrementAndGet(); // and asks for nothing more
            }
        };
        WakeSchedule schedule = new WakeSchedule("idle", executor, System::nanoTime, relay);
        long asked = System.nanoTime();
        schedule.followUp(Duration.ofMillis(200));
        schedule.followUp(Duration.ofMillis(400));
        assertThat(schedule.followUpPending()).isTrue();
        long deadline = asked + TimeUnit.SECONDS.toNanos(5);
        while (schedule.followUpPending() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(schedule.followUpPending()).as("the look ran within 5 s").isFalse();
        // that no second look fires can only be seen by waiting past the later one's time
        long pastTheLaterLook = asked + TimeUnit.MILLISECONDS.toNanos(700) - System.nanoTime();
        if (pastTheLaterLook > 0) {
            TimeUnit.NANOSECONDS.sleep(pastTheLaterLook);
        }
        assertThat(relay.woken).as("looks by 700 ms").hasValue(1);
    }
}
