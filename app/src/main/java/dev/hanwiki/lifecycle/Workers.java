package dev.hanwiki.lifecycle;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The workers of a {@link Background} (ADR 0097): threads on which the thread doing a piece of the
 * bean's work runs CPU-heavy parts of it in parallel, and waits for them. Two pools, each made on
 * first use, because a thread's priority can only be lowered ({@link ThreadPriority}): one at
 * normal priority ({@code <name>-worker-N}) and one at the bean's helper niceness
 * ({@code <name>-low-priority-worker-N}). Daemon threads; idle ones end after a minute.
 */
final class Workers {

    private final String name;
    private final int threads;
    private final int niceness;
    /** Guarded by this; null until first used. */
    private ThreadPoolExecutor normal;
    private ThreadPoolExecutor lowered;

    Workers(String name, int threads, int niceness) {
        this.name = name;
        this.threads = threads;
        this.niceness = niceness;
    }

    /**
     * The pool for work at low priority (the helper's niceness; the normal pool when that is 0) or
     * at normal priority. Normal-priority threads are made by the thread that hands them work and
     * inherit its priority: that must be a thread at normal priority.
     */
    synchronized Executor executor(boolean lowPriority) {
        if (lowPriority && niceness > 0) {
            if (lowered == null) {
                lowered = pool(name + "-low-priority-worker-", niceness);
            }
            return lowered;
        }
        if (normal == null) {
            normal = pool(name + "-worker-", 0);
        }
        return normal;
    }

    /** Ends both pools: running pieces finish (waited for up to {@code timeout} each), no new ones start. */
    void shutdown(Duration timeout) throws InterruptedException {
        ThreadPoolExecutor[] pools;
        synchronized (this) {
            pools = new ThreadPoolExecutor[] {normal, lowered};
        }
        for (ThreadPoolExecutor pool : pools) {
            if (pool != null) {
                pool.shutdown();
                pool.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    private ThreadPoolExecutor pool(String prefix, int nice) {
        ThreadFactory platform = Thread.ofPlatform().name(prefix, 0).daemon().factory();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
                task -> platform.newThread(() -> {
                    ThreadPriority.lowerCurrentThread(nice);
                    task.run();
                }));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
