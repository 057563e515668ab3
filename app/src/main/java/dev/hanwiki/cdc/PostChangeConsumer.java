package dev.hanwiki.cdc;

import dev.hanwiki.change.PostsIndexed;
import dev.hanwiki.platform.NodeSettings;
import dev.hanwiki.search.PostIndex;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Owns the KafkaConsumer for the posts change stream and the one thread that uses it. It
 * assigns every partition itself (no group rebalancing), seeks to the offsets stored in the
 * last Lucene commit (or the beginning), and loops: poll, apply, refresh searchers, and at most
 * every {@code commit-interval} commit the index together with the offsets it now reflects.
 * Offsets are also committed to Kafka, but only so monitoring can see consumer lag. Kafka or
 * the topic being unavailable is waited out, never fatal: searches keep working meanwhile.
 */
@Component
class PostChangeConsumer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PostChangeConsumer.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    private static final long WAIT_LOG_EVERY_MILLIS = 30_000;
    static final long BULK_ENTER_LAG = 10_000;
    static final long BULK_LEAVE_LAG = 1_000;

    private final CdcSettings settings;
    private final NodeSettings node;
    private final PostIndex index;
    private final PostChangeApplier applier;
    private final IndexerProgress progress;
    private final IndexerMetrics metrics;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final Object pauseMonitor = new Object();
    private volatile boolean running;
    private volatile Thread thread;
    private volatile KafkaConsumer<String, String> consumer;

    // Confined to the consumer thread.
    private final AppliedOffsets applied;
    private List<TopicPartition> assignment = List.of();
    private long lastSweepMillis;
    private long lastWaitLogMillis = Long.MIN_VALUE / 2;

    PostChangeConsumer(CdcSettings settings, NodeSettings node, PostIndex index, PostChangeApplier applier,
            IndexerProgress progress, IndexerMetrics metrics, Clock clock, ApplicationEventPublisher events) {
        this.settings = settings;
        this.node = node;
        this.index = index;
        this.applier = applier;
        this.progress = progress;
        this.metrics = metrics;
        this.clock = clock;
        this.events = events;
        this.applied = new AppliedOffsets(settings.postsTopic());
        this.lastSweepMillis = Long.MIN_VALUE / 2;
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        thread = Thread.ofPlatform().name("post-change-consumer").start(this::run);
    }

    /** Leaves the poll loop, waits for the final index commit, then returns (before the index closes). */
    @Override
    public synchronized void stop() {
        running = false;
        KafkaConsumer<String, String> current = consumer;
        if (current != null) {
            current.wakeup();
        }
        synchronized (pauseMonitor) {
            pauseMonitor.notifyAll();
        }
        Thread worker = thread;
        if (worker != null) {
            try {
                worker.join(STOP_TIMEOUT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (worker.isAlive()) {
                log.warn("Change consumer did not stop within {}", STOP_TIMEOUT);
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void run() {
        KafkaConsumer<String, String> kafka = null;
        AutoCloseable clientMetrics = null;
        try {
            kafka = new KafkaConsumer<>(settings.consumerConfig(node.id()), new StringDeserializer(), new StringDeserializer());
            consumer = kafka;
            clientMetrics = metrics.bindConsumer(kafka);
            loop(kafka);
        } catch (RuntimeException e) {
            // Only construction can get here (bad client config); the loop itself never throws.
            log.error("Change consumer could not start; the index will not follow the database", e);
            progress.failed(e.toString());
        } finally {
            if (clientMetrics != null) {
                try {
                    clientMetrics.close();
                } catch (Exception e) {
                    log.debug("Closing consumer metrics failed", e);
                }
            }
            if (kafka != null) {
                shutDown(kafka);
            }
            progress.stopped();
        }
    }

    private void loop(KafkaConsumer<String, String> kafka) {
        while (running) {
            try {
                if (assignment.isEmpty() && !assign(kafka)) {
                    pause();
                    continue;
                }
                ConsumerRecords<String, String> records = kafka.poll(settings.pollTimeout());
                updateBulkMode(kafka);
                if (!records.isEmpty()) {
                    applyBatch(records);
                }
                trackPositions(kafka);
                updateBulkMode(kafka);
                maybeSweepTombstones();
                maybeCommit(kafka, false);
            } catch (WakeupException e) {
                // stop() interrupted a blocking call; the loop condition ends the loop.
            } catch (RuntimeException e) {
                log.error("Applying changes failed; retrying from the last applied offsets in {}", settings.retryBackoff(), e);
                progress.failed(e.toString());
                pause();
                rewind(kafka);
            }
        }
    }

    private boolean assign(KafkaConsumer<String, String> kafka) {
        String topic = settings.postsTopic();
        List<PartitionInfo> infos;
        Map<TopicPartition, Long> ends;
        try {
            infos = kafka.partitionsFor(topic, settings.metadataTimeout());
            if (infos == null || infos.isEmpty()) {
                waiting(IndexerProgress.Phase.WAITING_FOR_TOPIC, "topic " + topic + " does not exist yet; "
                        + "it appears when the Debezium connector snapshots the posts table");
                return false;
            }
            List<TopicPartition> partitions = infos.stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .sorted(Comparator.comparingInt(TopicPartition::partition))
                    .toList();
            // Assign first: with read_committed, end offsets of unassigned partitions log a warning.
            kafka.assign(partitions);
            ends = kafka.endOffsets(partitions, settings.metadataTimeout());
            assignment = partitions;
        } catch (TimeoutException e) {
            kafka.unsubscribe();
            waiting(IndexerProgress.Phase.WAITING_FOR_KAFKA, "Kafka at " + settings.bootstrapServers() + " is not reachable");
            return false;
        }
        Map<Integer, Long> resume = OffsetKeys.decode(topic, index.committedUserData());
        applied.resumeFrom(resume);
        for (TopicPartition tp : assignment) {
            Long from = resume.get(tp.partition());
            if (from == null) {
                kafka.seekToBeginning(List.of(tp));
            } else {
                kafka.seek(tp, from);
                if (from > ends.get(tp)) {
                    log.warn("Index resumes {} at {} but the topic ends at {}: was the topic recreated? "
                            + "Delete this node's index to rebuild it", tp, from, ends.get(tp));
                }
            }
        }
        Map<Integer, Long> targets = ends.entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().partition(), Map.Entry::getValue));
        progress.assigned(targets, applied.view());
        log.info("Indexing {} partition(s) of {}: resuming at {} (from the index commit; absent = from the beginning), "
                + "caught up once at {}", assignment.size(), topic, applied.view(), targets);
        return true;
    }

    /**
     * Bulk/catch-up hook (issue 4, ADR 0022): while the index is rebuilding, or is more than
     * {@link #BULK_ENTER_LAG} events behind the stream (a bulk load into the database), the
     * index refreshes and commits in large steps instead of once per poll, which would flush a
     * tiny segment per batch. Below {@link #BULK_LEAVE_LAG} it is back to per-batch refreshes.
     */
    private void updateBulkMode(KafkaConsumer<String, String> kafka) {
        long lag = 0;
        for (TopicPartition tp : assignment) {
            lag += kafka.currentLag(tp).orElse(0);
        }
        boolean behind = index.inBulkMode() ? lag > BULK_LEAVE_LAG : lag > BULK_ENTER_LAG;
        index.bulkMode(!progress.snapshot().caughtUp() || behind);
    }

    private void applyBatch(ConsumerRecords<String, String> records) {
        long polledAt = clock.millis();
        PostChangeApplier.BatchResult result = metrics.stage(IndexerMetrics.Stage.APPLY).record(() -> applier.apply(records));
        metrics.recordArrival(result, polledAt);
        metrics.stage(IndexerMetrics.Stage.REFRESH).record(index::refresh);
        metrics.recordBatch(result, clock.millis());
        if (!result.changes().isEmpty()) {
            metrics.stage(IndexerMetrics.Stage.LISTENERS).record(() -> publish(new PostsIndexed(result.changes())));
        }
        for (TopicPartition tp : records.partitions()) {
            applied.applied(tp.partition(), records.records(tp).getLast().offset() + 1);
        }
    }

    /** A listener's failure is logged, never allowed to stop or rewind the indexer. */
    private void publish(PostsIndexed indexed) {
        try {
            events.publishEvent(indexed);
        } catch (RuntimeException e) {
            log.warn("A PostsIndexed listener failed ({} changes): {}", indexed.changes().size(), e.toString());
        }
    }

    /**
     * After a poll, the consumer's position is past everything handed to us, and all of that
     * is applied. Using it (not just last offset + 1) also steps over transaction markers,
     * which would otherwise keep the indexer one offset short of "caught up" forever.
     */
    private void trackPositions(KafkaConsumer<String, String> kafka) {
        for (TopicPartition tp : assignment) {
            long position;
            try {
                position = kafka.position(tp, Duration.ZERO);
            } catch (TimeoutException e) {
                continue; // not resolved yet (e.g. Kafka down right after seekToBeginning)
            }
            applied.observed(tp.partition(), position);
        }
        progress.applied(applied.view());
    }

    private void maybeCommit(KafkaConsumer<String, String> kafka, boolean force) {
        long now = clock.millis();
        if (!applied.commitDue(now, settings.commitInterval(), force)) {
            return;
        }
        metrics.stage(IndexerMetrics.Stage.COMMIT).record(() -> index.commit(applied.userData()));
        applied.committed(now);
        kafka.commitAsync(applied.forKafka(), (committed, error) -> {
            if (error != null) {
                log.debug("Kafka offset commit (monitoring only) failed: {}", error.toString());
            }
        });
    }

    /**
     * Expires delete tombstones older than the retention (the first time right after start).
     * Runs on this thread, which owns the index writes, so it never races with an apply.
     */
    private void maybeSweepTombstones() {
        long now = clock.millis();
        if (now - lastSweepMillis < settings.tombstoneSweepInterval().toMillis()) {
            return;
        }
        lastSweepMillis = now;
        int purged = index.purgeTombstones(now - settings.tombstoneRetention().toMillis());
        if (purged > 0) {
            log.info("Forgot {} delete tombstone(s) older than {}", purged, settings.tombstoneRetention());
        }
    }

    /** After a failure, re-read from what the index has applied; re-applying is harmless. */
    private void rewind(KafkaConsumer<String, String> kafka) {
        try {
            for (TopicPartition tp : assignment) {
                Long from = applied.next(tp.partition());
                if (from == null) {
                    kafka.seekToBeginning(List.of(tp));
                } else {
                    kafka.seek(tp, from);
                }
            }
        } catch (RuntimeException e) {
            log.warn("Could not rewind; reassigning partitions", e);
            assignment = List.of();
        }
    }

    private void shutDown(KafkaConsumer<String, String> kafka) {
        try {
            maybeCommit(kafka, true);
        } catch (RuntimeException e) {
            log.warn("Final index commit failed; the next start replays from the previous commit", e);
        }
        try {
            kafka.close(CloseOptions.timeout(Duration.ofSeconds(2)));
        } catch (RuntimeException e) {
            log.warn("Closing the Kafka consumer failed", e);
        }
        consumer = null;
        log.info("Change consumer stopped at {}", applied.view());
    }

    private void waiting(IndexerProgress.Phase phase, String reason) {
        progress.waiting(phase, reason);
        long now = clock.millis();
        if (now - lastWaitLogMillis >= WAIT_LOG_EVERY_MILLIS) {
            lastWaitLogMillis = now;
            log.warn("Indexer waiting: {} (retrying every {}; searches serve the current index meanwhile)", reason, settings.retryBackoff());
        }
    }

    private void pause() {
        synchronized (pauseMonitor) {
            if (!running) {
                return;
            }
            try {
                pauseMonitor.wait(settings.retryBackoff().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
            }
        }
    }
}
