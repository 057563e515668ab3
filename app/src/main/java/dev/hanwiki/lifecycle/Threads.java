package dev.hanwiki.lifecycle;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Executors that are beans themselves, closed by Spring with the context (their
 * {@code close()} waits for running tasks). For work a request hands off; work of a bean's own
 * goes through {@link Background}.
 */
public final class Threads {

    private Threads() {
    }

    /** A virtual thread per task, named {@code prefix0, prefix1, ...}: for tasks that block on I/O. */
    public static ExecutorService virtualPerTask(String prefix) {
        return Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(prefix, 0).factory());
    }
}
