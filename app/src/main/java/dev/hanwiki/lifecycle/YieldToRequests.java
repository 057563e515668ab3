package dev.hanwiki.lifecycle;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Paces background work that runs at normal priority and makes other processes work too (an
 * autocomplete rebuild: its Redis round trips run on the shared Lettuce threads and on the Redis
 * servers, which a nice value on the rebuild's own thread cannot lower). Between two pieces of
 * work it asks whether the node's requests are short of CPU; while they are, it pauses, but for
 * at most {@code maxPauseShare} times the work done so far, so the work always finishes, at
 * worst {@code 1 + maxPauseShare} times slower than alone (ADR 0093, session-20 amendment).
 * <p>
 * One instance per run of the work; not thread-safe (the one thread doing the work calls it).
 */
public final class YieldToRequests {

    private final BooleanSupplier requestsShortOfCpu;
    private final double maxPauseShare;
    private final long stepNanos;
    private long workedNanos;
    private long pausedNanos;

    /**
     * @param requestsShortOfCpu true while the node's requests wait for a core
     * @param maxPauseShare      most pause per unit of work, over the whole run (0: never pauses)
     * @param step               longest single pause (the pressure is asked again after it)
     */
    public YieldToRequests(BooleanSupplier requestsShortOfCpu, double maxPauseShare, Duration step) {
        if (maxPauseShare < 0 || step.isNegative() || step.isZero()) {
            throw new IllegalArgumentException("maxPauseShare >= 0 and a positive step are required");
        }
        this.requestsShortOfCpu = requestsShortOfCpu;
        this.maxPauseShare = maxPauseShare;
        this.stepNanos = step.toNanos();
    }

    /**
     * After a piece of work that took {@code workNanos}: how long to pause before the next one
     * (zero when the requests have the CPU they need, or when this run already paused its share).
     * The caller pauses exactly that long.
     */
    public Duration pauseAfter(long workNanos) {
        workedNanos += Math.max(0, workNanos);
        if (!requestsShortOfCpu.getAsBoolean()) {
            return Duration.ZERO;
        }
        long allowed = (long) (maxPauseShare * workedNanos) - pausedNanos;
        long pause = Math.min(stepNanos, allowed);
        if (pause <= 0) {
            return Duration.ZERO;
        }
        pausedNanos += pause;
        return Duration.ofNanos(pause);
    }

    /** The pauses handed out so far. */
    public Duration paused() {
        return Duration.ofNanos(pausedNanos);
    }
}
