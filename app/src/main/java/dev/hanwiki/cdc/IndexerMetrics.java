package dev.hanwiki.cdc;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * Indexer meters. {@code hanwiki_indexer_visibility_lag_seconds} is measured after the searcher
 * refresh, from the write time of each fresh change (see {@link PostChange#changedAtMillis()}):
 * it is the write-to-search freshness this node delivers (the invariant is p99 under 1 s).
 * Snapshot reads are not fresh writes and are left out.
 */
@Component
class IndexerMetrics {

    private final Counter applied;
    private final Counter stale;
    private final Counter unchanged;
    private final Counter skipped;
    private final Timer visibilityLag;
    private final Timer arrivalLag;
    private final Map<Stage, Timer> stages = new EnumMap<>(Stage.class);
    private final MeterRegistry registry;

    /** The consumer thread's steps per batch, timed so a freshness budget can be split by hop. */
    enum Stage {
        APPLY, REFRESH, LISTENERS, COMMIT
    }

    IndexerMetrics(MeterRegistry registry, IndexerProgress progress) {
        this.registry = registry;
        this.applied = Counter.builder("hanwiki.indexer.events.applied")
                .description("Change events applied to the index").register(registry);
        this.stale = Counter.builder("hanwiki.indexer.events.stale")
                .description("Change events ignored because the index already held a newer version").register(registry);
        this.unchanged = Counter.builder("hanwiki.indexer.events.unchanged")
                .description("Change events not reindexed: same version and same popularity bucket").register(registry);
        this.skipped = Counter.builder("hanwiki.indexer.events.skipped")
                .description("Change events that could not be read and were skipped").register(registry);
        this.visibilityLag = Timer.builder("hanwiki.indexer.visibility.lag")
                .description("Time from database commit to the change being searchable on this node")
                .publishPercentileHistogram()
                .serviceLevelObjectives(Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1))
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(5))
                .register(registry);
        this.arrivalLag = Timer.builder("hanwiki.indexer.arrival.lag")
                .description("Time from database commit to the change reaching this node's consumer (binlog, Debezium, Connect, Kafka)")
                .publishPercentileHistogram()
                .serviceLevelObjectives(Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1))
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(5))
                .register(registry);
        for (Stage stage : Stage.values()) {
            stages.put(stage, Timer.builder("hanwiki.indexer.stage")
                    .description("Time the indexer thread spends per batch in each step")
                    .tag("stage", stage.name().toLowerCase(Locale.ROOT))
                    .publishPercentiles(0.5, 0.99)
                    .register(registry));
        }
        Gauge.builder("hanwiki.indexer.caught.up", progress, p -> p.snapshot().caughtUp() ? 1 : 0)
                .description("1 once the index has caught up with the change stream since start-up")
                .register(registry);
    }

    Timer stage(Stage stage) {
        return stages.get(stage);
    }

    /** {@code polledAtMillis}: when the poll that handed these changes over returned. */
    void recordArrival(PostChangeApplier.BatchResult result, long polledAtMillis) {
        for (long changedAt : result.changedAt()) {
            arrivalLag.record(Duration.ofMillis(Math.max(0, polledAtMillis - changedAt)));
        }
    }

    void recordBatch(PostChangeApplier.BatchResult result, long nowMillis) {
        applied.increment(result.applied());
        stale.increment(result.stale());
        unchanged.increment(result.unchanged());
        skipped.increment(result.skipped());
        for (long changedAt : result.changedAt()) {
            visibilityLag.record(Duration.ofMillis(Math.max(0, nowMillis - changedAt)));
        }
    }

    /**
     * Publishes the consumer client's own metrics (among them {@code records-lag} per
     * partition: the consumer lag in events) until the returned handle is closed.
     */
    AutoCloseable bindConsumer(org.apache.kafka.clients.consumer.Consumer<?, ?> consumer) {
        var binder = new io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics(consumer);
        binder.bindTo(registry);
        return binder;
    }
}
