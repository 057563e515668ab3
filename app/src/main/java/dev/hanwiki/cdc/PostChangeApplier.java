package dev.hanwiki.cdc;

import dev.hanwiki.change.PostsIndexed;
import dev.hanwiki.search.PostIndex;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Applies a batch of change records to the index, in order. A record that cannot be parsed goes
 * to the dead-letter topic and is skipped, so one bad event never stalls the stream; index
 * failures propagate (and are retried), because skipping those would silently lose changes.
 */
@Component
class PostChangeApplier {

    private static final Logger log = LoggerFactory.getLogger(PostChangeApplier.class);

    private final PostIndex index;
    private final PostChangeParser parser;
    private final DeadLetterSink deadLetters;
    /** Dates the tombstone of a delete whose event does not say when it happened. */
    private final Clock clock;

    PostChangeApplier(PostIndex index, PostChangeParser parser, DeadLetterSink deadLetters, Clock clock) {
        this.index = index;
        this.parser = parser;
        this.deadLetters = deadLetters;
        this.clock = clock;
    }

    /**
     * Outcome of one batch; {@code changedAt} holds the write times of applied fresh writes.
     * {@code unchanged}: same version and same popularity bucket as indexed (a like or view
     * that does not move the page in the ranking), so the document was not rewritten.
     * {@code changes}: every applied or unchanged change, in stream order.
     */
    record BatchResult(int applied, int stale, int unchanged, int skipped, List<Long> changedAt,
            List<PostsIndexed.Change> changes) {
    }

    BatchResult apply(Iterable<ConsumerRecord<String, String>> records) {
        int applied = 0;
        int stale = 0;
        int unchanged = 0;
        int skipped = 0;
        List<Long> timestamps = new ArrayList<>();
        List<PostsIndexed.Change> changes = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            PostChange change;
            try {
                change = parser.parse(record.key(), record.value());
            } catch (MalformedChangeException e) {
                skipped++;
                log.warn("Dead-lettering unreadable change {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), e.getMessage());
                deadLetters.send(record, e.getMessage());
                continue;
            }
            PostIndex.Outcome outcome = switch (change) {
                case PostChange.Upsert upsert -> index.upsert(upsert.post());
                case PostChange.Delete delete -> index.delete(delete.postId(), delete.version(),
                        delete.deletedAtMillis().orElse(clock.millis()));
            };
            switch (outcome) {
                case APPLIED -> {
                    applied++;
                    change.changedAtMillis().ifPresent(timestamps::add);
                    changes.add(change.announced(true));
                }
                case STALE -> stale++;
                case UNCHANGED -> {
                    unchanged++;
                    changes.add(change.announced(false));
                }
            }
        }
        return new BatchResult(applied, stale, unchanged, skipped, timestamps, changes);
    }
}
