package dev.hanwiki.cdc;

import dev.hanwiki.change.PostsIndexed;
import dev.hanwiki.search.PostDocument;
import dev.hanwiki.search.PostIndex;
import dev.hanwiki.search.PostIndexWriter;
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

    private final PostIndexWriter index;
    private final PostChangeParser parser;
    private final DeadLetterSink deadLetters;
    /** Dates the tombstone of a delete whose event does not say when it happened. */
    private final Clock clock;

    PostChangeApplier(PostIndex index, PostChangeParser parser, DeadLetterSink deadLetters, Clock clock) {
        this.index = index.writer();
        this.parser = parser;
        this.deadLetters = deadLetters;
        this.clock = clock;
    }

    /**
     * Outcome of one batch; {@code changedAt} holds the write times of applied fresh writes.
     * {@code unchanged}: same version and same popularity bucket as indexed (a like or view
     * that does not move the page in the ranking), so the document was not rewritten.
     * {@code changes}: every applied or unchanged change, in stream order. A counter change of a
     * post the index does not hold yet is deferred (counted as unchanged, announced with the post).
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
            PostsIndexed.Change announced;
            PostIndexWriter.Outcome outcome;
            switch (change) {
                case PostChange.Upsert upsert -> {
                    PostIndexWriter.Applied result = index.apply(upsert.post(), upsert.carriesCounters());
                    outcome = result.outcome();
                    announced = announce(upsert, result);
                }
                case PostChange.Counters counters -> {
                    PostIndexWriter.Applied result = index.applyCounters(counters.postId(), counters.counters());
                    outcome = result.outcome();
                    announced = announce(counters, result);
                }
                case PostChange.Delete delete -> {
                    outcome = index.delete(delete.postId(), delete.version(), delete.deletedAtMillis().orElse(clock.millis()));
                    announced = delete.announced(outcome == PostIndexWriter.Outcome.APPLIED);
                }
                case PostChange.Ignored ignored -> {
                    outcome = PostIndexWriter.Outcome.STALE;
                    announced = null;
                }
            }
            switch (outcome) {
                case APPLIED -> {
                    applied++;
                    change.changedAtMillis().ifPresent(timestamps::add);
                    changes.add(announced);
                }
                case STALE -> stale++;
                case UNCHANGED -> {
                    unchanged++;
                    changes.add(announced);
                }
                // Announced when its post arrives (with the post's own change).
                case DEFERRED -> unchanged++;
            }
        }
        return new BatchResult(applied, stale, unchanged, skipped, timestamps, changes);
    }

    /** An upsert as the caches and autocomplete see it: with the counts the index ranks by, not the row's. */
    private static PostsIndexed.Change announce(PostChange.Upsert upsert, PostIndexWriter.Applied result) {
        PostDocument post = upsert.post();
        return new PostsIndexed.Change(post.id(), false, post.version(), post.title(), post.categoryId(),
                result.counters().likes(), result.counters().views(), result.outcome() == PostIndexWriter.Outcome.APPLIED,
                upsert.changedAtMillis().isEmpty());
    }

    /**
     * A counter change as the caches and autocomplete see it: the new counts with the version,
     * title and category the index holds (the counter row has none), counter-only by definition.
     */
    private static PostsIndexed.Change announce(PostChange.Counters counters, PostIndexWriter.Applied result) {
        return new PostsIndexed.Change(counters.postId(), false, result.version(), result.title(), result.categoryId(),
                counters.counters().likes(), counters.counters().views(), result.outcome() == PostIndexWriter.Outcome.APPLIED, true);
    }
}
