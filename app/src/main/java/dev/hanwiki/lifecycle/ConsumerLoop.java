package dev.hanwiki.lifecycle;

import java.time.Duration;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The skeleton every Kafka consumer of this service shares (the Kafka client examples' rule:
 * one thread owns a consumer): it opens the consumer on its own thread, calls {@link #round}
 * while running, wakes a blocked poll on stop, and closes the consumer on that same thread.
 * A round that throws is handed to {@link #failed}: the subclass either repositions the
 * consumer and keeps it, or has it closed and a new one opened after the back-off. Kafka being
 * down is therefore waited out, never fatal. Started last and stopped first
 * ({@link Phases#CHANGE_CONSUMERS}).
 */
public abstract class ConsumerLoop extends Background {

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final Duration backoff;
    private volatile KafkaConsumer<String, String> consumer;
    /** When the last poll that found changes returned ({@link System#nanoTime} in ms); see {@link #gather}. */
    private long lastBatchMillis = Long.MIN_VALUE / 2;

    protected ConsumerLoop(String name, Duration stopTimeout, Duration backoff) {
        this(name, stopTimeout, backoff, 0);
    }

    /** @param helperNiceness the priority of the loop's {@link #atLowPriority} work (see {@link Background}) */
    protected ConsumerLoop(String name, Duration stopTimeout, Duration backoff, int helperNiceness) {
        this(name, stopTimeout, backoff, helperNiceness, 1);
    }

    /** @param workerThreads how many threads the loop's {@link #workers} have (see {@link Background}) */
    protected ConsumerLoop(String name, Duration stopTimeout, Duration backoff, int helperNiceness, int workerThreads) {
        super(name, Phases.CHANGE_CONSUMERS, stopTimeout, helperNiceness, workerThreads);
        this.backoff = backoff;
    }

    /** A new consumer (assigned or subscribed here or in the first round). */
    protected abstract KafkaConsumer<String, String> open();

    /** One poll and what it asks for. */
    protected abstract void round(KafkaConsumer<String, String> kafka);

    /**
     * After a round threw (not a wake-up), or {@link #open} did ({@code kafka} null): log,
     * reposition, pause with {@link #pause}.
     *
     * @return true to keep this consumer, false to close it and open another after the back-off
     */
    protected abstract boolean failed(KafkaConsumer<String, String> kafka, RuntimeException error);

    /**
     * Under a steady stream, lets the changes of one {@code interval} gather in Kafka (and in the
     * consumer's prefetch) before the next poll, so that they are handled as one batch: one
     * refresh, one round of evictions, one offset commit, one fetch per interval instead of one
     * per arrival (issue 14, write cost: at 100 writes/s the indexer refreshed about 25 times a
     * second and the L2 invalidator committed as often). A change after a quiet spell finds the
     * interval long past and is polled at once, so the wait adds latency only while changes keep
     * coming, and at most the interval. Call before the poll; {@link #batchFound} after a poll
     * that found changes.
     *
     * @return false when the loop is stopping
     */
    protected final boolean gather(Duration interval) {
        long wait = batchWaitMillis(lastBatchMillis, interval.toMillis(), nowMillis());
        return wait == 0 || pause(Duration.ofMillis(wait));
    }

    /** A poll found changes: the next {@link #gather} waits out the interval from now. */
    protected final void batchFound() {
        lastBatchMillis = nowMillis();
    }

    private static long nowMillis() {
        return System.nanoTime() / 1_000_000;
    }

    /** How long to wait before the next poll: what is left of the interval since the last batch. */
    static long batchWaitMillis(long lastBatchMillis, long intervalMillis, long nowMillis) {
        return Math.max(0, Math.min(intervalMillis, lastBatchMillis + intervalMillis - nowMillis));
    }

    /** On the loop's thread, before the consumer closes (a final commit). */
    protected void closing(KafkaConsumer<String, String> kafka) {
    }

    @Override
    protected final void onStart() {
        submit(this::run);
    }

    @Override
    protected final void beforeStop() {
        KafkaConsumer<String, String> current = consumer;
        if (current != null) {
            current.wakeup();
        }
    }

    private void run() {
        while (running()) {
            KafkaConsumer<String, String> kafka;
            try {
                kafka = open();
            } catch (RuntimeException e) {
                // A bad client configuration: nothing to consume with until it is fixed.
                failed(null, e);
                pause(backoff);
                continue;
            }
            consumer = kafka;
            boolean keep = true;
            try {
                while (running() && keep) {
                    try {
                        round(kafka);
                    } catch (WakeupException e) {
                        // stop() woke a blocking call: the loop condition ends the loop.
                    } catch (RuntimeException e) {
                        keep = failed(kafka, e);
                    }
                }
            } finally {
                consumer = null;
                close(kafka);
            }
            if (!keep) {
                pause(backoff);
            }
        }
    }

    private void close(KafkaConsumer<String, String> kafka) {
        try {
            closing(kafka);
        } catch (RuntimeException e) {
            log.warn("Closing work before the consumer closes failed", e);
        }
        try {
            // Leaves a group at once, so another member takes the partitions over.
            kafka.close(CloseOptions.timeout(Duration.ofSeconds(2)));
        } catch (RuntimeException e) {
            log.warn("Closing the Kafka consumer failed", e);
        }
    }
}
