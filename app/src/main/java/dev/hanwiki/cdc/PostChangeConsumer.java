package dev.hanwiki.cdc;

import dev.hanwiki.change.IndexPosition;
import dev.hanwiki.change.PostsIndexed;
import dev.hanwiki.lifecycle.ConsumerLoop;
import dev.hanwiki.platform.NodeSettings;
import dev.hanwiki.search.PostIndex;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * Owns the KafkaConsumer for the posts change stream and the one thread that uses it
 * ({@link ConsumerLoop}). {@link StreamAssignment} assigns every partition (no group
 * rebalancing) from the offsets stored in the last Lucene commit (or the beginning); each
 * round then polls, applies, refreshes searchers, and at most
 * every {@code commit-interval} commit the index together with the offsets it now reflects.
 * Offsets are also committed to Kafka, but only so monitoring can see consumer lag. Kafka or
 * the topic being unavailable is waited out, never fatal: searches keep working meanwhile.
 */
@Component
class PostChangeConsumer extends ConsumerLoop {

    private static final Logger log = LoggerFactory.getLogger(PostChangeConsumer.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    static final long BULK_ENTER_LAG = 10_000;
    static final long BULK_LEAVE_LAG = 1_000;
    /**
     * When the indexer is catching up (after Kafka, Connect or the node was down) rather than
     * following the stream: more than {@link #CATCH_UP_ENTER_LAG} events behind in Kafka, or the
     * newest change of its last batch committed more than {@link #CATCH_UP_ENTER_AGE} before it was
     * polled. The age matters because after a Kafka outage Connect replays the binlog into Kafka
     * little by little: the consumer stays a few events behind Kafka while applying changes made a
     * minute ago. It follows again under both lower marks. Following at 100 writes/s keeps it a few
     * dozen events and about a second behind at most.
     */
    static final long CATCH_UP_ENTER_LAG = 500;
    static final long CATCH_UP_LEAVE_LAG = 100;
    static final Duration CATCH_UP_ENTER_AGE = Duration.ofSeconds(5);
    static final Duration CATCH_UP_LEAVE_AGE = Duration.ofSeconds(2);
    /** A stream quiet this long has no backlog left to deliver: the change age is cleared ({@link ChangeAge}). */
    static final Duration CATCH_UP_QUIET = Duration.ofSeconds(5);

    private final CdcSettings settings;
    private final NodeSettings node;
    private final PostIndex index;
    private final PostChangeApplier applier;
    private final IndexerProgress progress;
    private final IndexerMetrics metrics;
    private final Clock clock;
    private final ApplicationEventPublisher events;

    // Confined to the consumer thread.
    private final AppliedOffsets applied;
    private final StreamAssignment assignment;
    private AutoCloseable clientMetrics;
    private long lastSweepMillis;
    /** Only the consumer thread reads and writes these three. */
    private boolean catchingUp;
    /** The last poll returned as many records as a poll may: a backlog, so the next one does not wait. */
    private boolean lastPollFull;
    private final ChangeAge changeAge = new ChangeAge(CATCH_UP_QUIET);

    PostChangeConsumer(CdcSettings settings, NodeSettings node, PostIndex index, PostChangeApplier applier,
            IndexerProgress progress, IndexerMetrics metrics, Clock clock, ApplicationEventPublisher events) {
        super("post-change-consumer", STOP_TIMEOUT, settings.retryBackoff(), settings.indexerNiceness(), settings.analysisThreads());
        this.settings = settings;
        this.node = node;
        this.index = index;
        this.applier = applier;
        this.progress = progress;
        this.metrics = metrics;
        this.clock = clock;
        this.events = events;
        this.applied = new AppliedOffsets(settings.postsTopic());
        this.assignment = new StreamAssignment(settings, progress, applied, clock);
        this.lastSweepMillis = Long.MIN_VALUE / 2;
    }

    @Override
    protected KafkaConsumer<String, String> open() {
        KafkaConsumer<String, String> kafka = new KafkaConsumer<>(settings.consumerConfig(node.id()),
                new StringDeserializer(), new StringDeserializer());
        clientMetrics = metrics.bindConsumer(kafka);
        return kafka;
    }

    @Override
    protected void round(KafkaConsumer<String, String> kafka) {
        if (assignment.isEmpty() && !assignment.assign(kafka, index.committedUserData())) {
            pause(settings.retryBackoff());
            return;
        }
        // After a full poll there is a backlog in Kafka: no reason to wait for more.
        if (!lastPollFull && !gather(settings.batchInterval())) {
            return; // stopping
        }
        ConsumerRecords<String, String> records = kafka.poll(settings.pollTimeout());
        lastPollFull = records.count() >= CdcSettings.MAX_POLL_RECORDS;
        changeAge.polled(records.count(), clock.millis());
        updateModes(kafka);
        if (!records.isEmpty()) {
            applyBatch(records);
        }
        trackPositions(kafka);
        updateModes(kafka);
        maybeSweepTombstones();
        maybeCommit(kafka, false);
    }

    /** Keeps the consumer: re-reads from the last applied offsets after the back-off. */
    @Override
    protected boolean failed(KafkaConsumer<String, String> kafka, RuntimeException error) {
        if (kafka == null) {
            log.error("Change consumer could not start; the index will not follow the database", error);
            progress.failed(error.toString());
            return false;
        }
        log.error("Applying changes failed; retrying from the last applied offsets in {}", settings.retryBackoff(), error);
        progress.failed(error.toString());
        if (pause(settings.retryBackoff())) {
            assignment.rewind(kafka);
        }
        return true;
    }

    /** The final index commit with the offsets it reflects (before the index closes). */
    @Override
    protected void closing(KafkaConsumer<String, String> kafka) {
        try {
            maybeCommit(kafka, true);
        } catch (RuntimeException e) {
            log.warn("Final index commit failed; the next start replays from the previous commit", e);
        }
        if (clientMetrics != null) {
            try {
                clientMetrics.close();
            } catch (Exception e) {
                log.debug("Closing consumer metrics failed", e);
            }
            clientMetrics = null;
        }
        log.info("Change consumer stopped at {}", applied.view());
    }

    @Override
    protected void afterStop() {
        progress.stopped();
    }

    /**
     * Bulk/catch-up hook (issue 4, ADR 0022): while the index is rebuilding, or is more than
     * {@link #BULK_ENTER_LAG} events behind the stream (a bulk load into the database), the
     * index refreshes and commits in large steps instead of once per poll, which would flush a
     * tiny segment per batch. Below {@link #BULK_LEAVE_LAG} it is back to per-batch refreshes.
     * While it catches up ({@link #catchingUp}), its work runs at low priority.
     */
    private void updateModes(KafkaConsumer<String, String> kafka) {
        long lag = 0;
        for (TopicPartition tp : assignment.partitions()) {
            lag += kafka.currentLag(tp).orElse(0);
        }
        boolean behind = behind(index.writer().inBulkMode(), lag, BULK_ENTER_LAG, BULK_LEAVE_LAG);
        index.writer().bulkMode(!progress.snapshot().caughtUp() || behind);
        boolean wasCatchingUp = catchingUp;
        catchingUp = catchingUp(catchingUp, lag, changeAge.millis());
        if (catchingUp != wasCatchingUp) {
            log.info(catchingUp ? "{} events and {} ms behind the change stream: catching up at low priority"
                    : "{} events and {} ms behind the change stream: following it at normal priority again",
                    lag, changeAge.millis());
        }
    }

    /** Hysteresis: behind past {@code enter} events, and still behind until under {@code leave}. */
    static boolean behind(boolean wasBehind, long lag, long enter, long leave) {
        return wasBehind ? lag > leave : lag > enter;
    }

    /** Catching up: too many events behind in Kafka, or applying changes made too long ago. */
    static boolean catchingUp(boolean was, long lag, long changeAgeMillis) {
        return behind(was, lag, CATCH_UP_ENTER_LAG, CATCH_UP_LEAVE_LAG)
                || behind(was, changeAgeMillis, CATCH_UP_ENTER_AGE.toMillis(), CATCH_UP_LEAVE_AGE.toMillis());
    }

    private void applyBatch(ConsumerRecords<String, String> records) {
        long polledAt = clock.millis();
        batchFound();
        boolean background = index.writer().inBulkMode() || catchingUp;
        // The pages of the batch's upserts are analysed on the workers (analysis-threads, ADR
        // 0097) at the priority of the step that waits for them; none with one thread.
        Executor analysis = workers(background);
        Supplier<PostChangeApplier.BatchResult> step = () -> {
            PostChangeApplier.BatchResult applied = metrics.stage(IndexerMetrics.Stage.APPLY).record(() -> applier.apply(records, analysis));
            metrics.stage(IndexerMetrics.Stage.REFRESH).record(index.writer()::refresh);
            return applied;
        };
        // Catching up (a rebuild, a re-snapshot, a bulk load, the backlog of a Kafka or Connect
        // outage) is background work: its analysis and indexing run at low priority, so that a
        // full machine serves requests first (ADR 0093, fourth and fifth amendments: the backlog
        // of a 90 s Kafka outage, indexed at normal priority, pushed both nodes' limits from 32
        // to 8 and shed a search). Following the stream is not: a write waits on it to be
        // searchable, so it keeps normal priority. The step makes no thread but Lucene's merge
        // threads (lowered anyway) and, in the background, the low-priority analysis workers; the
        // listeners below, which talk to Redis and Kafka, stay on this thread at normal priority.
        PostChangeApplier.BatchResult result = background ? atLowPriority(step) : step.get();
        changeAge.applied(result.changedAt(), polledAt);
        metrics.recordArrival(result, polledAt);
        metrics.recordBatch(result, clock.millis());
        for (TopicPartition tp : records.partitions()) {
            applied.applied(tp.partition(), records.records(tp).getLast().offset() + 1);
        }
        progress.insideSnapshot(result.endsInsideSnapshot());
        if (!result.changes().isEmpty()) {
            IndexPosition position = new IndexPosition(applied.view());
            metrics.stage(IndexerMetrics.Stage.LISTENERS).record(() -> publish(new PostsIndexed(result.changes(), position)));
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
        for (TopicPartition tp : assignment.partitions()) {
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
        metrics.stage(IndexerMetrics.Stage.COMMIT).record(() -> index.writer().commit(applied.userData()));
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
        int purged = index.writer().purgeTombstones(now - settings.tombstoneRetention().toMillis());
        if (purged > 0) {
            log.info("Forgot {} delete tombstone(s) older than {}", purged, settings.tombstoneRetention());
        }
    }
}
