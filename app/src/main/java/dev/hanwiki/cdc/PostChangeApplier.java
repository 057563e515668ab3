package dev.hanwiki.cdc;

import dev.hanwiki.change.PostsIndexed;
import dev.hanwiki.search.PostDocument;
import dev.hanwiki.search.PostIndex;
import dev.hanwiki.search.PostIndexWriter;
import dev.hanwiki.search.PreAnalyzedPost;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Applies a batch of change records to the index, in order. A record that cannot be parsed goes
 * to the dead-letter topic and is skipped, so one bad event never stalls the stream; index
 * failures propagate (and are retried), because skipping those would silently lose changes.
 * <p>
 * The pages of a batch's upserts may be analysed beforehand, in parallel, on the workers the
 * caller hands over (ADR 0097): the batch is parsed first, the upserts' pages go to the workers in
 * stream order ({@link AnalysisAhead}), and the changes are applied one by one in stream order
 * exactly as without them, each upsert waiting for its own page's tokens only if it is written. A
 * failed analysis fails the batch there, like a failed index write. No tokens outlive the batch.
 */
@Component
class PostChangeApplier {

    private static final Logger log = LoggerFactory.getLogger(PostChangeApplier.class);

    private final PostIndexWriter index;
    private final PostChangeParser parser;
    private final DeadLetterSink deadLetters;
    /** Dates the tombstone of a delete whose event does not say when it happened. */
    private final Clock clock;
    /** A page's analysis, run on the executor {@link #apply(Iterable, Executor)} is given. */
    private final Function<PostDocument, PreAnalyzedPost> analyzer;

    @Autowired
    PostChangeApplier(PostIndex index, PostChangeParser parser, DeadLetterSink deadLetters, Clock clock) {
        this(index, parser, deadLetters, clock, index.writer()::analyze);
    }

    /** With another analysis of the pages handed to an executor (tests: one that fails). */
    PostChangeApplier(PostIndex index, PostChangeParser parser, DeadLetterSink deadLetters, Clock clock,
            Function<PostDocument, PreAnalyzedPost> analyzer) {
        this.index = index.writer();
        this.parser = parser;
        this.deadLetters = deadLetters;
        this.clock = clock;
        this.analyzer = analyzer;
    }

    /**
     * Outcome of one batch; {@code changedAt} holds the write times of applied fresh writes.
     * {@code unchanged}: same version and same popularity bucket as indexed (a like or view
     * that does not move the page in the ranking), so the document was not rewritten.
     * {@code changes}: every applied or unchanged change, in stream order. A counter change of a
     * post the index does not hold yet is deferred (counted as unchanged, announced with the post).
     * {@code endsInsideSnapshot}: the batch's last record is a snapshot row with more to come
     * ({@link PostChangeParser#insideSnapshot}).
     */
    record BatchResult(int applied, int stale, int unchanged, int skipped, List<Long> changedAt,
            List<PostsIndexed.Change> changes, boolean endsInsideSnapshot) {
    }

    /** A record and what it says, or why it cannot be read. */
    private record Parsed(ConsumerRecord<String, String> record, PostChange change, MalformedChangeException error) {
    }

    /** {@link #apply(Iterable, Executor)} with each page analysed by the IndexWriter when it is written. */
    BatchResult apply(Iterable<ConsumerRecord<String, String>> records) {
        return apply(records, null);
    }

    /**
     * @param analysis where the upserts' pages are analysed before the loop reaches them; null:
     *                 by the IndexWriter on this thread, when each is written
     */
    BatchResult apply(Iterable<ConsumerRecord<String, String>> records, Executor analysis) {
        List<Parsed> batch = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            try {
                batch.add(new Parsed(record, parser.parse(record.key(), record.value()), null));
            } catch (MalformedChangeException e) {
                batch.add(new Parsed(record, null, e));
            }
        }
        boolean endsInsideSnapshot = !batch.isEmpty() && parser.insideSnapshot(batch.getLast().record().value());
        if (analysis == null) {
            return applyInOrder(batch, null, endsInsideSnapshot);
        }
        List<PostDocument> pages = new ArrayList<>();
        for (Parsed parsed : batch) {
            if (parsed.change() instanceof PostChange.Upsert upsert) {
                pages.add(upsert.post());
            }
        }
        try (AnalysisAhead ahead = new AnalysisAhead(pages, analyzer, analysis)) {
            return applyInOrder(batch, ahead, endsInsideSnapshot);
        }
    }

    /** The loop as it always was; {@code ahead}: the upserts' analyses in order, or null (the IndexWriter analyses). */
    private BatchResult applyInOrder(List<Parsed> batch, AnalysisAhead ahead, boolean endsInsideSnapshot) {
        int applied = 0;
        int stale = 0;
        int unchanged = 0;
        int skipped = 0;
        List<Long> timestamps = new ArrayList<>();
        List<PostsIndexed.Change> changes = new ArrayList<>();
        for (Parsed parsed : batch) {
            if (parsed.error() != null) {
                ConsumerRecord<String, String> record = parsed.record();
                skipped++;
                log.warn("Dead-lettering unreadable change {}-{}@{}: {}", record.topic(), record.partition(), record.offset(),
                        parsed.error().getMessage());
                deadLetters.send(record, parsed.error().getMessage());
                continue;
            }
            PostChange change = parsed.change();
            PostsIndexed.Change announced;
            PostIndexWriter.Outcome outcome;
            switch (change) {
                case PostChange.Upsert upsert -> {
                    PostIndexWriter.Applied result = ahead == null
                            ? index.apply(upsert.post(), upsert.carriesCounters()) // the IndexWriter analyses it
                            : index.apply(upsert.post(), upsert.carriesCounters(), ahead.next());
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
        return new BatchResult(applied, stale, unchanged, skipped, timestamps, changes, endsInsideSnapshot);
    }

    /** An upsert as the caches and autocomplete see it: with the counts the index ranks by, not the row's. */
    private static PostsIndexed.Change announce(PostChange.Upsert upsert, PostIndexWriter.Applied result) {
        PostDocument post = upsert.post();
        return new PostsIndexed.Change(post.id(), false, post.version(), post.title(), post.categoryId(),
                result.counters().likes(), result.counters().views(), shownNow(result),
                upsert.changedAtMillis().isEmpty(), result.addedTerms());
    }

    /**
     * A counter change as the caches and autocomplete see it: the new counts with the version,
     * title and category the index holds (the counter row has none), counter-only by definition.
     */
    private static PostsIndexed.Change announce(PostChange.Counters counters, PostIndexWriter.Applied result) {
        return new PostsIndexed.Change(counters.postId(), false, result.version(), result.title(), result.categoryId(),
                counters.counters().likes(), counters.counters().views(), shownNow(result), true);
    }

    /**
     * Whether this batch's refresh shows the document rewritten: a bucket move held for the next
     * counter write is shown by that write, which the index announces itself.
     */
    private static boolean shownNow(PostIndexWriter.Applied result) {
        return result.outcome() == PostIndexWriter.Outcome.APPLIED && !result.held();
    }
}
