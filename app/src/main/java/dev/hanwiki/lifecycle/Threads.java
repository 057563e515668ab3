package dev.hanwiki.lifecycle;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Executors that are beans themselves, closed by Spring with the context (their
 * {@code close()} waits for running tasks). For work a request hands off; work of a bean's own
 * goes through {@link Background}.
 */
public final class Threads {

    private Threads() {
    }

    /**
     * The result of work handed to another thread, or what it threw, thrown here as it was (a
     * checked cause wrapped); interrupted: the interrupt flag set again and {@code waiting}
     * named in the exception.
     */
    public static <T> T await(Future<T> result, String waiting) {
        try {
            return result.get();
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case RuntimeException r -> throw r;
                case Error error -> throw error;
                default -> throw new IllegalStateException(e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted " + waiting, e);
        }
    }

    /** A virtual thread per task, named {@code prefix0, prefix1, ...}: for tasks that block on I/O. */
    public static ExecutorService virtualPerTask(String prefix) {
        return Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(prefix, 0).factory());
    }
}
