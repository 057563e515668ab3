package dev.hanwiki.it;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.IntPredicate;

/** Polls a condition until it holds or the deadline passes; returns how long it took. */
final class Eventually {

    private Eventually() {
    }

    static Duration within(Duration limit, String what, BooleanSupplier condition) {
        return within(limit, Duration.ofMillis(20), what, condition);
    }

    /** The same, looking only every {@code every} (for a condition that is costly to check or to try). */
    static Duration within(Duration limit, Duration every, String what, BooleanSupplier condition) {
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        while (true) {
            if (condition.getAsBoolean()) {
                return Duration.ofNanos(System.nanoTime() - start);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " did not happen within " + limit);
            }
            try {
                Thread.sleep(every.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for: " + what, e);
            }
        }
    }

    /**
     * Polls both nodes alternately (neither waits for the other) until {@code holds} is true for
     * each, and fails unless each got there within {@code limit} of {@code sinceNanos} (a write's
     * acknowledgement, from {@link System#nanoTime()}). Each node's time is its own, measured
     * from the acknowledgement, so node 2's never includes node 1's.
     *
     * @return each node's time, index 1 and 2
     */
    static Duration[] onBothNodes(Duration limit, long sinceNanos, String what, IntPredicate holds) {
        Duration[] took = new Duration[3];
        long deadline = sinceNanos + limit.toNanos();
        while (took[1] == null || took[2] == null) {
            for (int n = 1; n <= 2; n++) {
                if (took[n] == null && holds.test(n)) {
                    took[n] = Duration.ofNanos(System.nanoTime() - sinceNanos);
                }
            }
            if (took[1] != null && took[2] != null) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " not on both nodes within " + limit + " of the acknowledgement: node1 "
                        + (took[1] == null ? "never" : took[1]) + ", node2 " + (took[2] == null ? "never" : took[2]));
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for: " + what, e);
            }
        }
        return took;
    }
}
