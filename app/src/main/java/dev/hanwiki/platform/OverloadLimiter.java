package dev.hanwiki.platform;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.AIMDLimit;
import com.netflix.concurrency.limits.limit.WindowedLimit;
import com.netflix.concurrency.limits.limit.window.PercentileSampleWindowFactory;
import com.netflix.concurrency.limits.limiter.AbstractLimiter;
import com.netflix.concurrency.limits.limiter.AbstractPartitionedLimiter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * The node's one adaptive concurrency limit (Netflix concurrency-limits, ADR 0093), owner of its
 * state and its metrics. Two layers of the library and a backlog of its own:
 * <ul>
 * <li>the limit: AIMD over the p95 of each window of admitted requests' time in the node: a
 * window whose p95 is over the latency target shrinks the limit, a window under it grows the
 * limit by one (also when it is little used), always between the minimum and the maximum; a
 * slow window while the node's CPU is not queued (a slow dependency) counts as one under it, and
 * grows the limit by half if it used all of it ({@link NodeAimd});</li>
 * <li>partitions: when the limit is reached, reads, writes and operator calls are each
 * guaranteed their share of it (under it, anyone may borrow), so a burst of writes or a
 * rebuild cannot crowd reads out;</li>
 * <li>a short LIFO backlog ({@link LifoBacklog}): a request that finds no slot waits at most the
 * backlog timeout, newest first (the one most likely still wanted), then is shed; every release
 * offers the free slots to the waiters.</li>
 * </ul>
 * A shed request costs the node a few microseconds: it never reaches security, a controller
 * or a pool.
 */
final class OverloadLimiter {

    /** Who is preferred when the node is saturated. */
    enum Partition {
        READ, WRITE, INTERNAL;

        final String tag = name().toLowerCase(Locale.ROOT);
    }

    /** An admitted request's slot: exactly one of the three calls releases it. */
    interface Permit {
        /** Answered: its time in the node is a sample of the limit. */
        void success();

        /** Answered with a sign of overload further in (a 503: a pool that timed out): shrinks the limit. */
        void dropped();

        /** Failed for a reason that says nothing about load: released, not sampled. */
        void ignore();
    }

    private final Limiter<Partition> limiter;
    private final AbstractLimiter<Partition> adaptive;
    private final Map<Partition, AtomicInteger> inflight = new EnumMap<>(Partition.class);
    private final Map<Partition, Counter> admitted = new EnumMap<>(Partition.class);
    private final Map<Partition, Counter> shed = new EnumMap<>(Partition.class);
    private final AtomicInteger waiting = new AtomicInteger();

    /** A limiter that cannot see the node's CPU queue: every slow window counts as the CPU's. */
    OverloadLimiter(OverloadSettings settings, MeterRegistry meters) {
        this(settings, meters, System::nanoTime, () -> Double.NaN);
    }

    /**
     * @param cpuWaiting the node's threads waiting for a core on average over the last window
     *                   ({@link CpuQueue#waiting()}); NaN when unknown
     */
    @SuppressWarnings("unchecked")
    OverloadLimiter(OverloadSettings settings, MeterRegistry meters, LongSupplier nanoClock, DoubleSupplier cpuWaiting) {
        AIMDLimit aimd = AIMDLimit.newBuilder()
                .minLimit(settings.minLimit())
                .initialLimit(settings.initialLimit())
                .maxLimit(settings.maxLimit())
                .backoffRatio(settings.backoffRatio())
                .timeout(settings.latencyTarget().toNanos(), TimeUnit.NANOSECONDS)
                .build();
        long window = settings.window().toNanos();
        WindowedLimit limit = WindowedLimit.newBuilder()
                .minWindowTime(window, TimeUnit.NANOSECONDS)
                .maxWindowTime(window, TimeUnit.NANOSECONDS)
                .windowSize(10)
                .minRttThreshold(0, TimeUnit.NANOSECONDS)
                .sampleWindowFactory(PercentileSampleWindowFactory.of(0.95, 1000))
                .build(new NodeAimd(aimd, settings.latencyTarget().toNanos(), cpuWaiting,
                        settings.cpuQueueShare(), Counter.builder("hanwiki.overload.slow.dependency.windows")
                                .description("limiter windows over the latency target counted healthy: "
                                        + "the node's CPU was not the queue, a dependency was slow")
                                .register(meters)));
        Limiter<Partition> partitioned = new PartitionedBuilder()
                .named("http")
                .limit(limit)
                .nanoClock(nanoClock)
                .partitionResolver(p -> p.tag)
                .partition(Partition.READ.tag, settings.readShare())
                .partition(Partition.WRITE.tag, settings.writeShare())
                .partition(Partition.INTERNAL.tag, settings.internalShare())
                .build();
        this.adaptive = (AbstractLimiter<Partition>) partitioned;
        this.limiter = settings.backlogSize() == 0 ? partitioned
                : new LifoBacklog<>(partitioned, settings.backlogSize(), settings.backlogTimeout().toMillis());

        Gauge.builder("hanwiki.overload.limit", adaptive, AbstractLimiter::getLimit)
                .description("the adaptive concurrency limit: requests in flight the node admits now")
                .register(meters);
        Gauge.builder("hanwiki.overload.waiting", waiting, AtomicInteger::get)
                .description("requests waiting in the backlog for a slot")
                .register(meters);
        for (Partition p : Partition.values()) {
            AtomicInteger busy = new AtomicInteger();
            inflight.put(p, busy);
            Gauge.builder("hanwiki.overload.inflight", busy, AtomicInteger::get)
                    .description("admitted requests in flight").tag("partition", p.tag).register(meters);
            admitted.put(p, Counter.builder("hanwiki.overload.requests").description("requests by limiter outcome")
                    .tag("partition", p.tag).tag("outcome", "admitted").register(meters));
            shed.put(p, Counter.builder("hanwiki.overload.requests").description("requests by limiter outcome")
                    .tag("partition", p.tag).tag("outcome", "shed").register(meters));
        }
    }

    /** A slot for a request of this partition, waiting at most the backlog timeout; empty: shed it. */
    Optional<Permit> acquire(Partition partition) {
        waiting.incrementAndGet();
        Optional<Limiter.Listener> listener;
        try {
            listener = limiter.acquire(partition);
        } finally {
            waiting.decrementAndGet();
        }
        if (listener.isEmpty()) {
            shed.get(partition).increment();
            return Optional.empty();
        }
        admitted.get(partition).increment();
        AtomicInteger busy = inflight.get(partition);
        busy.incrementAndGet();
        Limiter.Listener l = listener.get();
        return Optional.of(new Permit() {
            @Override
            public void success() {
                busy.decrementAndGet();
                l.onSuccess();
            }

            @Override
            public void dropped() {
                busy.decrementAndGet();
                l.onDropped();
            }

            @Override
            public void ignore() {
                busy.decrementAndGet();
                l.onIgnore();
            }
        });
    }

    int limit() {
        return adaptive.getLimit();
    }

    int inflight() {
        return adaptive.getInflight();
    }

    /**
     * The library's AIMD, told two things it cannot see for itself.
     * <ul>
     * <li><b>Grows while healthy.</b> AIMD grows the limit only in a window where at least half
     * of it was in use; so a limit that a short burst (a cold JIT after a restart, a stalled
     * dependency) shrank to the minimum stayed there for as long as the node's traffic needs
     * fewer slots than that: at 100 req/s a node has two or three requests in flight, and the
     * limit sat at 8 to 13 for minutes after a restart, which writes waiting on a stalled primary
     * then filled (chaos disk-full: writes shed OVERLOADED). A window under the latency target
     * without a drop now grows the limit by one whatever the concurrency: back from the minimum
     * to the maximum in about 12 s of healthy windows.</li>
     * <li><b>Slow dependencies are not overload.</b> A window over the latency target counts as
     * overload only when the node's own CPU is the queue ({@link CpuQueue}: on average at least
     * {@code cpuQueueShare} of a thread waiting for a core per request in flight, i.e. the
     * requests spent about that share of their time queued for the CPU), or when it had a drop
     * (a pool that timed out). Slow links to MariaDB, Redis or Kafka make every request slow while the
     * node's threads sleep on sockets: requests then need more slots, not fewer (the same rate
     * times a longer stay), and a smaller limit cannot make a link faster. Shrinking there shed
     * writes that would have succeeded (chaos latency-100ms: 3.1% shed at 100 req/s, the limit at
     * its minimum of 8 with the node's run queue under one thread). Such a window counts as
     * healthy: the limit grows, until the CPU queues. Unknown (not Linux) counts as the CPU.</li>
     * <li><b>A slow dependency that fills the limit grows it fast.</b> When a link turns slow the
     * requests need several times the slots at once (writes at 100 ms per statement take a
     * second); growing by one per window left a limit at the minimum short for about 12 s, and the
     * sudden rise shed 18 requests in the first 1.2 s (chaos latency-100ms, session 17). Such a
     * window, if it used the whole limit, grows it by half: from 8 to 32 in four windows.</li>
     * </ul>
     * Under overload every window is over the target with the CPU queued, so neither changes
     * anything there.
     */
    static final class NodeAimd implements com.netflix.concurrency.limits.Limit {

        private final AIMDLimit aimd;
        private final long targetNanos;
        private final DoubleSupplier cpuWaiting;
        private final double cpuQueueShare;
        private final Counter slowDependencyWindows;

        NodeAimd(AIMDLimit aimd, long targetNanos, DoubleSupplier cpuWaiting, double cpuQueueShare,
                Counter slowDependencyWindows) {
            this.aimd = aimd;
            this.targetNanos = targetNanos;
            this.cpuWaiting = cpuWaiting;
            this.cpuQueueShare = cpuQueueShare;
            this.slowDependencyWindows = slowDependencyWindows;
        }

        @Override
        public int getLimit() {
            return aimd.getLimit();
        }

        @Override
        public void notifyOnChange(java.util.function.Consumer<Integer> consumer) {
            aimd.notifyOnChange(consumer);
        }

        @Override
        public void onSample(long startTime, long rtt, int inflight, boolean didDrop) {
            boolean slowDependency = !didDrop && rtt > targetNanos && !cpuIsTheQueue(inflight);
            if (slowDependency) {
                slowDependencyWindows.increment();
            }
            boolean overload = didDrop || rtt > targetNanos && !slowDependency; // a drop, or slow with the CPU queued
            if (overload) {
                aimd.onSample(startTime, rtt, inflight, didDrop);
                return;
            }
            // A slow dependency's window that used the whole limit: the same rate times a longer
            // stay needs more slots at once, so the limit grows by half of itself, not by one.
            int steps = slowDependency && inflight >= aimd.getLimit() ? Math.max(1, aimd.getLimit() / 2) : 1;
            for (int i = 0; i < steps; i++) {
                // AIMD grows by one on a window under its timeout that was at least half in use:
                // a healthy window is presented as such (the target, at least half the limit)
                aimd.onSample(startTime, Math.min(rtt, targetNanos), Math.max(inflight, (aimd.getLimit() + 1) / 2), false);
            }
        }

        /**
         * Whether the window's requests spent at least the threshold's share of their time
         * waiting for a core: the node's threads waiting, on average, per request in flight (the
         * window's most; threads other than requests', GC and the indexer, count against it).
         */
        private boolean cpuIsTheQueue(int inflight) {
            double waiting = cpuWaiting.getAsDouble();
            return Double.isNaN(waiting) || waiting >= cpuQueueShare * Math.max(1, inflight);
        }
    }

    /** The library's partitioned limiter; its builder is abstract only for the self type. */
    private static final class PartitionedBuilder extends AbstractPartitionedLimiter.Builder<PartitionedBuilder, Partition> {
        @Override
        protected PartitionedBuilder self() {
            return this;
        }
    }
}
