package dev.hanwiki.platform;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * How many of this process's threads were waiting for a core, on average, since the previous
 * look: the node's own CPU run queue (ADR 0093, third amendment). Linux keeps, per thread, the
 * nanoseconds it spent runnable but not running ({@code /proc/self/task/<tid>/schedstat}, second
 * field); the sum of their growth over a period, divided by the period, is that average. Threads
 * lowered to background priority are left out (see {@link #lowered}).
 * <p>
 * It tells the two kinds of slow window apart: when the node's CPU is the queue its threads wait
 * for a core (a node at twice its capacity: several threads on average); when a dependency is
 * slow they sleep on a socket and this stays near zero, however slow the requests are.
 * <p>
 * {@link #sample()} is called from one thread; {@link #waiting()} from any. {@code NaN} until two
 * samples were taken, and for good where the files do not exist (not Linux).
 */
final class CpuQueue {

    private final Path tasks;
    private final LongSupplier nanoClock;
    /** Each thread's run-queue nanoseconds at the previous sample; a thread that ended is dropped. */
    private Map<String, Long> waitedAt = new HashMap<>();
    private long sampledAt = Long.MIN_VALUE;
    private volatile double waiting = Double.NaN;

    CpuQueue(Path tasks, LongSupplier nanoClock) {
        this.tasks = tasks;
        this.nanoClock = nanoClock;
    }

    static CpuQueue ofThisProcess() {
        return new CpuQueue(Path.of("/proc/self/task"), System::nanoTime);
    }

    /** The average number of threads waiting for a core between the last two samples; NaN: unknown. */
    double waiting() {
        return waiting;
    }

    /** Reads every thread's run-queue time; from the second call on, updates {@link #waiting()}. */
    void sample() {
        long now = nanoClock.getAsLong();
        Map<String, Long> seen = new HashMap<>();
        long grown = 0;
        try (Stream<Path> threads = Files.list(tasks)) {
            for (Path thread : (Iterable<Path>) threads::iterator) {
                long waited = waitedNanos(thread);
                if (waited < 0) {
                    continue; // it ended while we looked
                }
                if (lowered(thread)) {
                    continue; // background work at a lower priority: it waits so that requests need not
                }
                String tid = thread.getFileName().toString();
                seen.put(tid, waited);
                Long before = waitedAt.get(tid);
                // a thread born since the last sample waited all of its time within the period
                grown += before == null ? waited : Math.max(0, waited - before);
            }
        } catch (IOException | RuntimeException e) {
            waiting = Double.NaN; // no /proc (not Linux) or unreadable: unknown, never a guess
            sampledAt = Long.MIN_VALUE;
            return;
        }
        boolean first = sampledAt == Long.MIN_VALUE;
        long period = now - sampledAt;
        waitedAt = seen;
        sampledAt = now;
        if (!first && period > 0) {
            waiting = (double) grown / period;
        }
    }

    /**
     * True for a thread running at a lower priority than normal (nice above 0: the indexer,
     * Lucene's merges; {@code dev.hanwiki.lifecycle.ThreadPriority}). Such a thread is meant to wait
     * while requests run, so its waiting says nothing about whether requests wait. Field 19 of
     * the thread's stat (counted after the name in parentheses, which may hold spaces); a file
     * that cannot be read counts as normal priority.
     */
    private static boolean lowered(Path thread) {
        String line;
        try {
            line = Files.readString(thread.resolve("stat"));
        } catch (IOException e) {
            return false;
        }
        String[] fields = line.substring(line.lastIndexOf(')') + 1).trim().split(" ");
        // fields[0] is field 3 (state), so field 19 (nice) is fields[16]
        return fields.length > 16 && Integer.parseInt(fields[16]) > 0;
    }

    /** The second field of the thread's schedstat, or -1 when it cannot be read. */
    private static long waitedNanos(Path thread) {
        String line;
        try {
            line = Files.readString(thread.resolve("schedstat"));
        } catch (IOException e) {
            return -1;
        }
        String[] fields = line.trim().split(" ");
        return fields.length < 2 ? -1 : Long.parseLong(fields[1]);
    }
}
