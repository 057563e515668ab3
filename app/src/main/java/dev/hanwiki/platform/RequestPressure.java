package dev.hanwiki.platform;

import java.util.function.DoubleSupplier;

/**
 * Whether this node's requests are short of CPU right now: on average at least
 * {@link #WAITING_THREADS} of the node's normal-priority threads waited for a core over the last
 * overload window ({@link CpuQueue}, the figure the overload limit reads; lowered background
 * threads are not counted). Background work that cannot lower its own priority asks it between
 * two pieces of work and pauses while it is true ({@code lifecycle.YieldToRequests}).
 * Unknown (not Linux, no sample yet) is not short: the work then runs as it did without this.
 */
public final class RequestPressure {

    /** One thread waiting on average: the cores are full with the node's own work. */
    public static final double WAITING_THREADS = 1.0;

    /** For nodes without the overload limit (hanwiki.overload.enabled=false): never short. */
    public static final RequestPressure NONE = new RequestPressure(() -> Double.NaN);

    private final DoubleSupplier cpuWaiting;

    RequestPressure(DoubleSupplier cpuWaiting) {
        this.cpuWaiting = cpuWaiting;
    }

    /** True while the node's threads wait for a core (NaN, unknown: false). */
    public boolean shortOfCpu() {
        return cpuWaiting.getAsDouble() >= WAITING_THREADS;
    }
}
