package dev.hanwiki.search;

import dev.hanwiki.change.TermHashes;
import dev.hanwiki.search.IndexedDocuments.Indexed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.SearcherManager;

/**
 * The write side of {@link PostIndex}, for the indexer alone (the change consumer in
 * {@code cdc}; {@code ModuleGraphTest} refuses any other module using it): upserts, counter
 * changes and deletes with their version rules, delete tombstones and early counters, refreshes
 * and commits with the caller's user data, and bulk mode ({@link IndexCommits}). All writes come from one thread; the
 * {@link IndexRefresher} refreshes concurrently without waiting for them.
 * <p>
 * Bulk mode (while the indexer catches up with the change stream, see ADR 0022): refreshes
 * and commits happen at most every {@link IndexCommits#BULK_REFRESH_MILLIS} / {@link IndexCommits#BULK_COMMIT_MILLIS}
 * instead of per batch, so the writer flushes large segments rather than one tiny segment
 * per poll. Nothing is lost by it: offsets are always recorded and committed with the next
 * commit or at close, and a crash replays from the previous commit.
 * <p>
 * Deletes leave a version tombstone ({@link DeleteTombstones}, ADR 0040), committed with the
 * documents and offsets, so that a late, older upsert cannot bring a deleted post back. The
 * owner of the change stream expires them ({@link #purgeTombstones}) after its retention.
 * <p>
 * A page's analysis (Nori: most of an upsert's cost) may happen before its change is applied,
 * on other threads ({@link #analyze}, the one method any thread may call; ADR 0097): the change
 * stream hands the tokens to {@link #apply(PostDocument, boolean, Supplier)}, which indexes them
 * exactly as it would have indexed the text.
 */
public final class PostIndexWriter {

    /** What an upsert did. */
    public enum Outcome {
        /** The document was written. */
        APPLIED,
        /** The index holds a newer version: ignored (a replayed or re-delivered event). */
        STALE,
        /** Same version, same popularity bucket: nothing the index uses changed, not rewritten. */
        UNCHANGED,
        /** A counter change of a post the index does not hold yet: kept until the post arrives. */
        DEFERRED
    }

    /**
     * What a change did and what the index now says of the post: its version, title and
     * category, and the counters it ranks by (for a counter change: the new counts, written or
     * not). Title is null when the outcome is STALE or DEFERRED. {@code addedTerms}: the terms of
     * a page the index did not hold before, as written ({@link PreAnalyzedPost#termHashes()});
     * null for anything else: an edit, a replay, a counter change (ADR 0099). {@code held}: a bucket
     * move kept for the next counter write (ADR 0080), which {@link PostIndex#onCountersShown} announces.
     */
    public record Applied(Outcome outcome, long version, String title, Long categoryId, PostCounters counters,
            TermHashes addedTerms, boolean held) {
        public Applied(Outcome outcome, long version, String title, Long categoryId, PostCounters counters) {
            this(outcome, version, title, categoryId, counters, null, false);
        }
    }

    private final IndexWriter writer;
    /** The IndexWriter's own analyzer (per field, always the current chains): pre-analysis uses exactly it. */
    private final Analyzer analyzer;
    private final Object writeLock = new Object();
    private final IndexedDocuments documents;
    private final DeleteTombstones tombstones;
    private final PendingCounters pending;
    private final UnwrittenCounters unwritten;
    private final IndexCommits commits;

    /** Made by {@link PostIndex} when it opens, from what the last commit recorded. */
    PostIndexWriter(IndexWriter writer, SearcherManager searchers, Map<String, String> committed,
            java.time.Duration counterWriteInterval, Clock clock) {
        this.writer = writer;
        this.analyzer = writer.getConfig().getAnalyzer();
        this.documents = new IndexedDocuments(searchers);
        this.tombstones = DeleteTombstones.decode(committed.get(DeleteTombstones.KEY));
        this.pending = PendingCounters.decode(committed.get(PendingCounters.KEY));
        this.unwritten = UnwrittenCounters.restore(committed.get(UnwrittenCounters.KEY), documents);
        this.commits = new IndexCommits(writer, searchers, writeLock, documents, unwritten, counterWriteInterval.toMillis(), data -> {
            data.put(PostIndex.FORMAT_KEY, PostIndex.FORMAT);
            tombstones.addTo(data);
            pending.addTo(data);
            unwritten.addTo(data);
        }, committed, clock);
    }

    /**
     * Bulk mode on or off; the indexer turns it on while it is behind the change stream. While
     * on, nobody searches this node (it is not ready), so freshness is traded for throughput.
     */
    public void bulkMode(boolean on) {
        commits.bulkMode(on);
    }

    public boolean inBulkMode() {
        return commits.inBulkMode();
    }

    /** Makes every write so far visible to searches before returning (in bulk mode: at most every 5 s). */
    public void refresh() {
        commits.refresh();
    }

    /**
     * Durably commits all writes so far, recording {@code userData} (the offsets they reflect)
     * with them. In bulk mode the data is recorded at once but the commit (an fsync of every new
     * segment) happens at most every 30 s, or at close.
     */
    public void commit(Map<String, String> userData) {
        commits.commit(userData);
    }

    IndexCommits commits() {
        return commits;
    }

    /**
     * Adds or replaces the document of {@code post.id()} ranked by the counts it carries (tools
     * and tests; the change stream uses {@link #apply}).
     */
    public Outcome upsert(PostDocument post) {
        return apply(post, true).outcome();
    }

    /**
     * Adds or replaces the document of {@code post.id()}, unless the index already holds a
     * newer version (a replayed or re-delivered event). Its counters are the index's own
     * (ADR 0080): those of the document it replaces, or of a counter change that arrived before
     * the post. {@code carriesCounters}: the page row had counts (a row from before counters had
     * their own table); they count as counter version 0, below any counter-row change. The same
     * version again with other such counts is a counter change (doc values only, no analysis).
     */
    public Applied apply(PostDocument post, boolean carriesCounters) {
        return apply(post, carriesCounters, null);
    }

    /**
     * The tokens of {@code post}'s text fields as the IndexWriter's analyzer makes them now. Any
     * thread, without the write lock: it reads nothing of the index. For
     * {@link #apply(PostDocument, boolean, Supplier)}.
     */
    public PreAnalyzedPost analyze(PostDocument post) {
        return PreAnalyzedPost.analyze(post, analyzer);
    }

    /**
     * {@link #apply(PostDocument, boolean)} with the page analysed beforehand: {@code analyzed}
     * is asked for {@link #analyze analyze(post)}'s result only when the document is written (not
     * for a stale change, nor for a counters-only one), before anything in the index changes; what
     * it throws (a failed analysis) is thrown from here. Null: the IndexWriter analyses the text
     * of an edit; a new page is analysed here, on the caller's thread, for its terms.
     */
    public Applied apply(PostDocument post, boolean carriesCounters, Supplier<PreAnalyzedPost> analyzed) {
        synchronized (writeLock) {
            DeleteTombstones.Tombstone tombstone = tombstones.get(post.id());
            if (tombstone != null && post.version() <= tombstone.version()) {
                return new Applied(Outcome.STALE, post.version(), null, null, PostCounters.NONE); // no resurrection
            }
            Indexed current = indexed(post.id());
            if (current != null && current.version() > post.version()) {
                return new Applied(Outcome.STALE, current.version(), null, null, current.counters());
            }
            boolean rewrite = current == null || current.version() != post.version();
            PreAnalyzedPost tokens = rewrite && analyzed != null ? PreAnalyzedPost.handedOver(post, analyzed.get())
                    : current == null ? analyze(post) : null; // a new page's terms are announced (ADR 0099)
            PostCounters counters = current == null ? PostCounters.NONE : current.counters();
            if (carriesCounters && counters.version() == 0) {
                counters = new PostCounters(post.viewCount(), post.likeCount(), 0);
            }
            PostCounters early = pending.take(post.id());
            if (early != null && early.version() > counters.version()) {
                counters = early;
            }
            if (current != null && current.version() == post.version()) {
                return writeCounters(post.id(), current, counters);
            }
            try {
                writer.updateDocument(PostFields.idTerm(post.id()), PostFields.toDocument(post, counters, tokens));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            documents.written(post.id(), new Indexed(post.version(), counters.bucket(), counters, post.title(), post.categoryId()));
            unwritten.remove(post.id()); // the new document carries them
            tombstones.remove(post.id());
            return new Applied(Outcome.APPLIED, post.version(), post.title(), post.categoryId(), counters,
                    current == null && tokens != null ? tokens.termHashes() : null, false);
        }
    }

    /**
     * A change of the post's counter row (ADR 0080): ignored if the index holds counts of that
     * row version or newer (a replay), kept for later if the post is not indexed yet, and
     * otherwise written as an in-place doc-values update of the popularity and counts only when
     * the popularity bucket moves. The page's text is never re-read or re-analysed.
     */
    public Applied applyCounters(long id, PostCounters counters) {
        synchronized (writeLock) {
            Indexed current = indexed(id);
            if (current == null) {
                if (tombstones.get(id) != null) {
                    return new Applied(Outcome.STALE, 0, null, null, counters); // the post is deleted
                }
                pending.put(id, counters);
                return new Applied(Outcome.DEFERRED, 0, null, null, counters);
            }
            if (counters.version() <= current.counters().version()) {
                return new Applied(Outcome.STALE, current.version(), null, null, current.counters());
            }
            return writeCounters(id, current, counters);
        }
    }

    /** Caller holds writeLock. The post as decisions see it: held counters ({@link UnwrittenCounters}) first. */
    private Indexed indexed(long id) {
        Indexed held = unwritten.get(id); // a rewrite or delete of the post drops it: held is current
        return held != null ? held : documents.get(id);
    }

    /** Caller holds writeLock. Rewrites the counters' doc values if the bucket moved: held, written with the others. */
    private Applied writeCounters(long id, Indexed current, PostCounters counters) {
        if (counters.bucket() == current.bucket()) {
            // Like before ADR 0080: a change the ranking cannot see writes nothing. The index
            // keeps the older counts (and counter version): replays compare against those.
            return new Applied(Outcome.UNCHANGED, current.version(), current.title(), current.categoryId(), counters);
        }
        unwritten.put(id, new Indexed(current.version(), counters.bucket(), counters, current.title(), current.categoryId()));
        return new Applied(Outcome.APPLIED, current.version(), current.title(), current.categoryId(), counters, null, true);
    }

    /** Counter changes waiting for their posts (the next commit records them). */
    public int pendingCounters() {
        synchronized (writeLock) {
            return pending.size();
        }
    }

    /**
     * Removes post {@code id} and leaves a version tombstone, so an upsert of a version up to
     * the delete's cannot bring it back while the tombstone lasts. {@code version} is the
     * delete's row version; empty when the event does not say (a Kafka tombstone): then the
     * delete covers whatever version the index knows. A delete older than the indexed document
     * is STALE; one that finds nothing to remove (already deleted, never seen) is UNCHANGED.
     *
     * @param deletedAtMillis when the delete happened: its tombstone's retention counts from here
     */
    public Outcome delete(long id, OptionalLong version, long deletedAtMillis) {
        synchronized (writeLock) {
            Indexed current = indexed(id);
            DeleteTombstones.Tombstone tombstone = tombstones.get(id);
            long known = Math.max(current == null ? 0 : current.version(), tombstone == null ? 0 : tombstone.version());
            long deleteVersion = version.orElse(known);
            if (current != null && current.version() > deleteVersion) {
                return Outcome.STALE;
            }
            if (current == null && (deleteVersion == 0 || tombstone != null && tombstone.version() >= deleteVersion)) {
                return Outcome.UNCHANGED;
            }
            try {
                writer.deleteDocuments(PostFields.idTerm(id));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            documents.deleted(id);
            unwritten.remove(id);
            tombstones.put(id, deleteVersion, deletedAtMillis);
            pending.take(id);
            return Outcome.APPLIED;
        }
    }

    /**
     * Forgets the tombstones of deletes that happened before {@code cutoffMillis} (and the
     * oldest beyond the cap), and creates none for such deletes from now on: an upsert older
     * than such a delete would be applied again. Returns how many were forgotten; the next
     * commit records the smaller set.
     */
    public int purgeTombstones(long cutoffMillis) {
        synchronized (writeLock) {
            return tombstones.expire(cutoffMillis);
        }
    }

    /** Delete tombstones held (they are not documents: no count or search includes them). */
    public int tombstoneCount() {
        synchronized (writeLock) {
            return tombstones.size();
        }
    }

}
