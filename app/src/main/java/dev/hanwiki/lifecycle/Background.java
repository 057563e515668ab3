package dev.hanwiki.lifecycle;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Background work done one way (ADR 0092): a lifecycle bean that owns ONE named platform
 * thread. The thread exists only between {@link #start()} and {@link #stop()}, made when the
 * first task is scheduled (a bean that only dials or waits for requests has none); constructors
 * only assign fields. A subclass says what to run in {@link #onStart()} ({@link #every},
 * {@link #after}, {@link #submit}), how to wake its blocking calls in {@link #beforeStop()},
 * and what to close once its thread has ended in {@link #afterStop()}. Besides its thread, a bean
 * may have a low-priority helper ({@link #atLowPriority}) and workers for work its thread splits
 * into parallel pieces ({@link #workers}), made on first use and ended by {@code stop()} too.
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
    private final int helperNiceness;
    private final int workerThreads;
    private final Object pauses = new Object();
    /** Made by the first task after start; null before and after. Guarded by this. */
    private ScheduledThreadPoolExecutor thread;
    /** The low-priority helper, made by the first {@link #atLowPriority} call; null before and after. Guarded by this. */
    private ExecutorService helper;
    /** The {@link #workers}, made on first use; null before and after. Guarded by this. */
    private Workers workers;
    private volatile boolean running;

    /**
     * @param name        the thread's name (it appears in thread dumps and logs)
     * @param phase       one of {@link Phases}
     * @param stopTimeout how long {@link #stop()} waits for the work in progress
     */
    protected Background(String name, int phase, Duration stopTimeout) {
        this(name, phase, stopTimeout, 0);
    }

    /**
     * @param helperNiceness the nice value of the thread {@link #atLowPriority} runs work on (above
     *                       0: a lower CPU priority, {@link ThreadPriority}; 0: normal)
     */
    protected Background(String name, int phase, Duration stopTimeout, int helperNiceness) {
        this(name, phase, stopTimeout, helperNiceness, 1);
    }

    /**
     * @param workerThreads how many threads {@link #workers} runs pieces of work on (1: none, the
     *                      caller runs them itself)
     */
    protected Background(String name, int phase, Duration stopTimeout, int helperNiceness, int workerThreads) {
        this.name = name;
        this.phase = phase;
        this.stopTimeout = stopTimeout;
        this.helperNiceness = helperNiceness;
        this.workerThreads = workerThreads;
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
        ExecutorService lowPriority;
        Workers pieces;
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            executor = thread;
            thread = null;
            lowPriority = helper;
            helper = null;
            pieces = workers;
            workers = null;
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
            // Only the bean's own thread hands work to the helper, and waits for it: with that
            // thread ended, the helper is idle (or still busy past the stop timeout: left to end).
            if (lowPriority != null) {
                lowPriority.shutdown();
                lowPriority.awaitTermination(stopTimeout.toMillis(), TimeUnit.MILLISECONDS);
            }
            // The same for the workers: only the bean's thread or its helper hand them work.
            if (pieces != null) {
                pieces.shutdown(stopTimeout);
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

    /**
     * Runs {@code work} on this bean's low-priority helper thread and returns its result (or
     * throws what it threw): for CPU-heavy background work that must yield the cores to requests
     * when the machine is full (ADR 0093, fourth amendment). Called from the bean's own thread,
     * which waits meanwhile and keeps its normal priority: a thread inherits its creator's
     * priority, so whatever the bean's thread creates lazily (a client's I/O threads, a pool that
     * later serves requests) must not be created at a lowered one. Only work that creates no such
     * thread belongs here. With a niceness of 0, or once {@link #stop()} began (the last piece of
     * work of a stopping bean), runs {@code work} on the calling thread.
     */
    protected final <T> T atLowPriority(Supplier<T> work) {
        ExecutorService lowPriority = helperNiceness <= 0 ? null : helper();
        if (lowPriority == null) {
            return work.get();
        }
        return Threads.await(lowPriority.submit(work::get), "waiting for " + name + "'s low-priority work");
    }

    /**
     * Where the thread that does a piece of this bean's work (its own, or the helper inside
     * {@link #atLowPriority}) runs CPU-heavy parts of it in parallel and waits for them (ADR
     * 0097): {@code workerThreads} threads ({@link Workers}), at the helper's niceness with
     * {@code lowPriority} (for work that itself runs at low priority), else at normal priority.
     * {@code stop()} ends them after the bean's thread and its helper. The rules of
     * {@link #atLowPriority} hold: only work that creates no thread. Normal-priority workers are
     * made by the thread that hands them work and inherit its priority, so they are asked for
     * from the bean's own thread.
     *
     * @return null with fewer than two worker threads or once {@link #stop()} began: the caller
     *         runs the pieces itself
     */
    protected final synchronized Executor workers(boolean lowPriority) {
        if (!running || workerThreads < 2) {
            return null;
        }
        if (workers == null) {
            workers = new Workers(name, workerThreads, helperNiceness);
        }
        return workers.executor(lowPriority);
    }

    /** The helper, made on first use; null once the bean is stopping (stop() ends the helper). */
    private synchronized ExecutorService helper() {
        if (!running) {
            return null;
        }
        if (helper == null) {
            ThreadFactory platform = Thread.ofPlatform().name(name + "-low-priority").daemon().factory();
            int nice = helperNiceness;
            helper = Executors.newSingleThreadExecutor(task -> platform.newThread(() -> {
                ThreadPriority.lowerCurrentThread(nice);
                task.run();
            }));
        }
        return helper;
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
