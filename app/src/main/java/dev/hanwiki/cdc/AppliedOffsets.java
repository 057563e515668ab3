package dev.hanwiki.cdc;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Per partition of the posts topic, the next offset the index still has to apply, and whether
 * the index has changed since its last commit. Confined to the consumer thread.
 */
final class AppliedOffsets {

    private final String topic;
    private final Map<Integer, Long> next = new HashMap<>();
    private boolean uncommitted;
    private long lastCommitMillis;

    AppliedOffsets(String topic) {
        this.topic = topic;
    }

    /** Starts over from what the last index commit reflects (partitions absent: not started). */
    void resumeFrom(Map<Integer, Long> committed) {
        next.clear();
        next.putAll(committed);
        uncommitted = false;
    }

    Long next(int partition) {
        return next.get(partition);
    }

    /** Records that the index now holds every record of the partition before {@code nextOffset}. */
    void applied(int partition, long nextOffset) {
        next.put(partition, nextOffset);
        uncommitted = true;
    }

    /**
     * Records the consumer's position after a poll whose records were all applied. It can be
     * past the last record (transaction markers); only a move of a known position needs a commit.
     */
    void observed(int partition, long position) {
        Long previous = next.put(partition, position);
        if (previous != null && previous != position) {
            uncommitted = true;
        }
    }

    boolean commitDue(long nowMillis, Duration interval, boolean force) {
        return uncommitted && (force || nowMillis - lastCommitMillis >= interval.toMillis());
    }

    void committed(long nowMillis) {
        uncommitted = false;
        lastCommitMillis = nowMillis;
    }

    /** As Lucene commit user data. */
    Map<String, String> userData() {
        return OffsetKeys.encode(topic, next);
    }

    /** As Kafka group offsets (written for lag monitoring only). */
    Map<TopicPartition, OffsetAndMetadata> forKafka() {
        return next.entrySet().stream().collect(Collectors.toMap(
                e -> new TopicPartition(topic, e.getKey()), e -> new OffsetAndMetadata(e.getValue())));
    }

    Map<Integer, Long> view() {
        return Map.copyOf(next);
    }
}
