package io.eeoutbox.relay.wake;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs a task on an executor when asked, coalescing requests: a request while the task is waiting to
 * start is absorbed; any number of requests while it runs cause exactly one more run after it. So a
 * burst of wake-ups (many commits, many notifications) costs at most one extra drain, and the task
 * never runs twice at the same time.
 */
public final class CoalescingTrigger {

    private static final Logger LOG = Logger.getLogger(CoalescingTrigger.class.getName());

    private static final int IDLE = 0;
    private static final int PENDING = 1;       // submitted, not started
    private static final int RUNNING = 2;
    private static final int RUNNING_AGAIN = 3; // running, and asked to run once more

    private final String name;
    private final Executor executor;
    private final Runnable task;
    private final AtomicInteger state = new AtomicInteger(IDLE);
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();

    public CoalescingTrigger(Executor executor, Runnable task) {
        this("(unnamed)", executor, task);
    }

    /** {@code name}: whose task it runs, for the log (the relay's name). */
    public CoalescingTrigger(String name, Executor executor, Runnable task) {
        this.name = Objects.requireNonNull(name, "name");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.task = Objects.requireNonNull(task, "task");
    }

    /**
     * Asks for a run.
     *
     * @throws RejectedExecutionException if the executor refuses the task (it is shutting down)
     */
    public void request() {
        while (true) {
            int s = state.get();
            switch (s) {
                case IDLE -> {
                    if (state.compareAndSet(IDLE, PENDING)) {
                        submit();
                        return;
                    }
                }
                case RUNNING -> {
                    if (state.compareAndSet(RUNNING, RUNNING_AGAIN)) {
                        return;
                    }
                }
                default -> {
                    return; // PENDING or RUNNING_AGAIN: already covered
                }
            }
        }
    }

    private void submit() {
        try {
            executor.execute(this::runLoop);
        } catch (RuntimeException e) {
            toIdle();
            throw e;
        }
    }

    private void runLoop() {
        if (!state.compareAndSet(PENDING, RUNNING)) {
            return;
        }
        while (true) {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, e, () -> "relay " + name + ": its task failed unexpectedly");
            } catch (Error e) {
                toIdle();
                throw e;
            }
            if (state.compareAndSet(RUNNING, IDLE)) {
                signalIdle();
                return;
            }
            // RUNNING_AGAIN: one more run covers every request that came in meanwhile
            state.set(RUNNING);
        }
    }

    private void toIdle() {
        state.set(IDLE);
        signalIdle();
    }

    private void signalIdle() {
        lock.lock();
        try {
            idle.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public boolean isIdle() {
        return state.get() == IDLE;
    }

    /** Waits until no run is pending or running; true if that happened within {@code timeout}. */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (state.get() != IDLE) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = idle.awaitNanos(remaining);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
