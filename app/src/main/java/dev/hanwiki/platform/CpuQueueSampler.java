package dev.hanwiki.platform;

import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;

/**
 * Looks at the node's CPU run queue ({@link CpuQueue}) once per limiter window, on its own
 * thread, so no request pays for reading a file per thread; the overload limit reads the last
 * figure. Also the gauge {@code hanwiki_overload_cpu_waiting_threads}.
 */
final class CpuQueueSampler extends Background implements MeterBinder {

    private final CpuQueue queue;
    private final Duration every;

    CpuQueueSampler(CpuQueue queue, Duration every) {
        super("cpu-queue-sampler", Phases.SERVING, Duration.ofSeconds(2));
        this.queue = queue;
        this.every = every;
    }

    @Override
    public void bindTo(MeterRegistry meters) {
        Gauge.builder("hanwiki.overload.cpu.waiting.threads", queue, CpuQueue::waiting)
                .description("the node's threads waiting for a core, on average over the last limiter window")
                .register(meters);
    }

    /** The last figure: the node's threads waiting for a core, on average; NaN: unknown. */
    double waiting() {
        return queue.waiting();
    }

    @Override
    protected void onStart() {
        every(Duration.ZERO, every, queue::sample);
    }
}
