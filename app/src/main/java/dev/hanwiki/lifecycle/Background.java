package dev.hanwiki.lifecycle;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Background work done one way (ADR 0092): a lifecycle bean that owns ONE named platform
 * thread. The thread exists only between {@link #start()} and {@link #stop()}, made when the
 * first task is scheduled (a bean that only dials or waits for requests has none); constructors
 * only assign fields. A subclass says what to run in {@link #onStart()} ({@link #every},
 * {@link #after}, {@link #submit}), how to wake its blocking calls in {@link #beforeStop()},
 * and what to close once its thread has ended in {@link #afterStop()}.
 * <p>
 * Stopping never interrupts the thread (an interrupt inside Lucene or Kafka I/O can close files
 * or connections): {@code stop()} cancels what is scheduled, wakes the work through
 * {@link #beforeStop()} and {@link #pause} (a running loop checks {@link #running()}), and waits
 * for it up to the stop timeout. A periodic task that throws is logged and keeps its schedule.
 */
public abstract class Background implements SmartLifecycle {

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final String name;
    private final int phase;
    private final Duration stopTimeout;
    private final Object pauses = new Object();
    /** Made by the first task after start; null before and after. Guarded by this. */
    private ScheduledThreadPoolExecutor thread;
    private volatile boolean running;

    /**
     * @param name        the thread's name (it appears in thread dumps and logs)
     * @param phase       one of {@link Phases}
     * @param stopTimeout how long {@link #stop()} waits for the work in progress
     */
    protected Background(String name, int phase, Duration stopTimeout) {
        this.name = name;
        this.phase = phase;
        this.stopTimeout = stopTimeout;
    }

    /** Schedules the work; runs once per start, on the caller's thread, with {@link #running()} true. */
    protected abstract void onStart();

    /** Wakes work blocked outside {@link #pause} (a Kafka poll, a condition); the thread still runs. */
    protected void beforeStop() {
    }

    /** After the thread ended (or the stop timeout passed): a last flush, closing clients. */
    protected void afterStop() {
    }

    @Override
    public final synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        onStart();
    }

    @Override
    public final void stop() {
        ScheduledThreadPoolExecutor executor;
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            executor = thread;
            thread = null;
        }
        if (executor != null) {
            executor.shutdown();
        }
        try {
            beforeStop();
        } catch (RuntimeException e) {
            log.warn("Waking {} for its stop failed", name, e);
        }
        synchronized (pauses) {
            pauses.notifyAll();
        }
        try {
            if (executor != null && !executor.awaitTermination(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("{} did not stop within {}", name, stopTimeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        afterStop();
    }

    @Override
    public final boolean isRunning() {
        return running;
    }

    @Override
    public final int getPhase() {
        return phase;
    }

    /** False once {@link #stop()} began: loops end, long tasks give up. */
    protected final boolean running() {
        return running;
    }

    /** Runs {@code task} every {@code every} after {@code first}, with a fixed delay between runs. */
    protected final void every(Duration first, Duration every, Runnable task) {
        started().scheduleWithFixedDelay(() -> runLogged(task), first.toNanos(), every.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Runs {@code task} once after {@code delay} (dropped if the bean stops first). */
    protected final void after(Duration delay, Runnable task) {
        started().schedule(() -> runLogged(task), delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Runs {@code task} on this bean's thread as soon as it is free: a loop, or a one-off job. */
    protected final Future<?> submit(Runnable task) {
        return started().submit(() -> runLogged(task));
    }

    private synchronized ScheduledThreadPoolExecutor started() {
        if (!running) {
            throw new IllegalStateException(name + " is not running");
        }
        if (thread == null) {
            thread = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().name(name).daemon().factory());
            thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
            thread.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
        }
        return thread;
    }

    /**
     * Waits up to {@code duration}, or less if the bean stops meanwhile.
     *
     * @return {@link #running()} after the wait
     */
    protected final boolean pause(Duration duration) {
        synchronized (pauses) {
            if (running) {
                try {
                    pauses.wait(Math.max(1, duration.toMillis()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return running;
    }

    private void runLogged(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            // A throwing periodic task would silently cancel every later run.
            log.warn("{} task failed", name, e);
        }
    }
}
