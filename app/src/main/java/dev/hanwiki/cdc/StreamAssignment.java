package dev.hanwiki.cdc;

import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the change consumer reads: it assigns every partition of the posts topic itself (no
 * group rebalancing), seeks to the offsets stored in the last Lucene commit (or the beginning),
 * and after a failure rewinds to what the index has applied. Confined to the consumer's thread.
 */
final class StreamAssignment {

    private static final Logger log = LoggerFactory.getLogger(StreamAssignment.class);
    private static final long WAIT_LOG_EVERY_MILLIS = 30_000;

    private final CdcSettings settings;
    private final IndexerProgress progress;
    private final AppliedOffsets applied;
    private final Clock clock;
    private List<TopicPartition> partitions = List.of();
    private long lastWaitLogMillis = Long.MIN_VALUE / 2;

    StreamAssignment(CdcSettings settings, IndexerProgress progress, AppliedOffsets applied, Clock clock) {
        this.settings = settings;
        this.progress = progress;
        this.applied = applied;
        this.clock = clock;
    }

    List<TopicPartition> partitions() {
        return partitions;
    }

    boolean isEmpty() {
        return partitions.isEmpty();
    }

    /**
     * Assigns the topic's partitions and seeks each to where {@code committed} (the index's
     * commit user data) says it resumes; false (and the progress says why) when the topic or
     * Kafka is not there yet.
     */
    boolean assign(KafkaConsumer<String, String> kafka, Map<String, String> committed) {
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
            List<TopicPartition> all = infos.stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .sorted(Comparator.comparingInt(TopicPartition::partition))
                    .toList();
            // Assign first: with read_committed, end offsets of unassigned partitions log a warning.
            kafka.assign(all);
            ends = kafka.endOffsets(all, settings.metadataTimeout());
            partitions = all;
        } catch (TimeoutException e) {
            kafka.unsubscribe();
            waiting(IndexerProgress.Phase.WAITING_FOR_KAFKA, "Kafka at " + settings.bootstrapServers() + " is not reachable");
            return false;
        }
        Map<Integer, Long> resume = OffsetKeys.decode(topic, committed);
        applied.resumeFrom(resume);
        for (TopicPartition tp : partitions) {
            Long from = resume.get(tp.partition());
            seek(kafka, tp, from);
            if (from != null && from > ends.get(tp)) {
                log.warn("Index resumes {} at {} but the topic ends at {}: was the topic recreated? "
                        + "Delete this node's index to rebuild it", tp, from, ends.get(tp));
            }
        }
        Map<Integer, Long> targets = ends.entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().partition(), Map.Entry::getValue));
        progress.assigned(targets, applied.view());
        log.info("Indexing {} partition(s) of {}: resuming at {} (from the index commit; absent = from the beginning), "
                + "caught up once at {}", partitions.size(), topic, applied.view(), targets);
        return true;
    }

    /** After a failure, re-read from what the index has applied; re-applying is harmless. */
    void rewind(KafkaConsumer<String, String> kafka) {
        try {
            for (TopicPartition tp : partitions) {
                seek(kafka, tp, applied.next(tp.partition()));
            }
        } catch (RuntimeException e) {
            log.warn("Could not rewind; reassigning partitions", e);
            partitions = List.of();
        }
    }

    /** To {@code from}, or the beginning when it is null (nothing applied yet). */
    private static void seek(KafkaConsumer<String, String> kafka, TopicPartition tp, Long from) {
        if (from == null) {
            kafka.seekToBeginning(List.of(tp));
        } else {
            kafka.seek(tp, from);
        }
    }

    private void waiting(IndexerProgress.Phase phase, String reason) {
        progress.waiting(phase, reason);
        long now = clock.millis();
        if (now - lastWaitLogMillis >= WAIT_LOG_EVERY_MILLIS) {
            lastWaitLogMillis = now;
            log.warn("Indexer waiting: {} (retrying every {}; searches serve the current index meanwhile)", reason, settings.retryBackoff());
        }
    }
}
