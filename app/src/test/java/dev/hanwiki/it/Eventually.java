package dev.hanwiki.it;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or the deadline passes; returns how long it took. */
final class Eventually {

    private Eventually() {
    }

    static Duration within(Duration limit, String what, BooleanSupplier condition) {
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
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for: " + what, e);
            }
        }
    }
}
