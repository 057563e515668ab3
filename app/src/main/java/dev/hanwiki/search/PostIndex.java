package dev.hanwiki.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.IOUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sole owner of this node's Lucene index: the directory, the one IndexWriter and the
 * SearcherManager ({@link IndexRefresher} refreshes it every {@code refresh-interval}). Writes come
 * from a single caller (the change consumer); searches from any thread, through
 * {@link #acquire()} and {@link #release} in {@code finally}. Merges run in the background
 * (Lucene's ConcurrentMergeScheduler). Commits carry the caller's user data (the Kafka offsets
 * the index reflects), which is how a restart resumes.
 * <p>
 * Bulk mode (while the indexer catches up with the change stream, see ADR 0022): refreshes
 * and commits happen at most every {@link #BULK_REFRESH_MILLIS} / {@link #BULK_COMMIT_MILLIS}
 * instead of per batch, so the writer flushes large segments rather than one tiny segment
 * per poll. Nothing is lost by it: offsets are always recorded and committed with the next
 * commit or at close, and a crash replays from the previous commit.
 * <p>
 * Deletes leave a version tombstone ({@link DeleteTombstones}, ADR 0040), committed with the
 * documents and offsets, so that a late, older upsert cannot bring a deleted post back. The
 * owner of the change stream expires them ({@link #purgeTombstones}) after its retention.
 */
public class PostIndex implements Searchers, AutoCloseable {

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
     * not). Title is null when the outcome is STALE or DEFERRED.
     */
    public record Applied(Outcome outcome, long version, String title, Long categoryId, PostCounters counters) {
    }

    static final long BULK_REFRESH_MILLIS = 5_000;
    static final long BULK_COMMIT_MILLIS = 30_000;
    private static final Logger log = LoggerFactory.getLogger(PostIndex.class);

    /** A document as indexed: version, popularity bucket, counters, title and category. */
    private record Indexed(long version, long bucket, PostCounters counters, String title, Long categoryId) {
    }

    private final SearchAnalysis analysis;
    private final Clock clock;
    private final Directory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final Object writeLock = new Object();
    /** Written since the last blocking refresh, which the searcher cannot see yet. */
    private final Map<Long, Indexed> unrefreshed = new HashMap<>();
    /** Marks an id deleted since the last blocking refresh (the searcher still shows the old document). */
    private static final Indexed DELETED = new Indexed(-1, -1, PostCounters.NONE, null, null);
    private final DeleteTombstones tombstones;
    private final PendingCounters pending;
    /** The caller's user data of the last commit request: close() commits it again, with fresh tombstones. */
    private Map<String, String> lastUserData = Map.of();
    /**
     * Commit user data key of the document schema version; bump {@link #FORMAT} on incompatible
     * changes, including a new list of common terms (3: word pairs of common terms, ADR 0024;
     * 4: popularity and counts in updatable doc values, no FeatureField, ADR 0080).
     */
    static final String FORMAT_KEY = "hanwiki.index.format";
    static final String FORMAT = "4";

    private volatile Map<String, String> committedUserData;
    private volatile boolean closed;
    private volatile boolean bulk;
    private volatile long lastRefreshMillis;
    private long lastCommitMillis;

    /** An index with its own analysis from {@code settings} (tools and tests). */
    public PostIndex(SearchSettings settings) throws IOException {
        this(settings, new SearchAnalysis(settings));
    }

    public PostIndex(SearchSettings settings, SearchAnalysis analysis) throws IOException {
        this(settings, analysis, Clock.systemUTC());
    }

    /** {@code clock}: when refreshes and commits are due in bulk mode. */
    PostIndex(SearchSettings settings, SearchAnalysis analysis, Clock clock) throws IOException {
        this.analysis = analysis;
        this.clock = clock;
        Path path = settings.indexPath().toAbsolutePath();
        Files.createDirectories(path);
        this.directory = FSDirectory.open(path);
        boolean fresh = !DirectoryReader.indexExists(directory) || !sameFormat(directory, path);
        IndexWriterConfig config = new IndexWriterConfig(analysis.indexAnalyzer())
                .setOpenMode(fresh ? IndexWriterConfig.OpenMode.CREATE : IndexWriterConfig.OpenMode.APPEND)
                .setRAMBufferSizeMB(settings.ramBufferMb());
        this.writer = new IndexWriter(directory, config);
        // Read after the writer holds write.lock: nobody else can commit underneath us.
        this.committedUserData = fresh ? Map.of() : Map.copyOf(SegmentInfos.readLatestCommit(directory).getUserData());
        this.tombstones = DeleteTombstones.decode(committedUserData.get(DeleteTombstones.KEY));
        this.pending = PendingCounters.decode(committedUserData.get(PendingCounters.KEY));
        this.lastUserData = committedUserData;
        this.searchers = new SearcherManager(writer, true, false, null);
        this.lastRefreshMillis = clock.millis();
        Map<String, String> shown = new HashMap<>(committedUserData);
        shown.remove(DeleteTombstones.KEY);
        shown.remove(PendingCounters.KEY);
        log.info("Opened post index at {} ({} docs, {} delete tombstones; committed user data: {})", path,
                writer.getDocStats().numDocs, tombstones.size(), shown);
    }

    /**
     * An index written by a build with another document schema cannot take this build's
     * documents (Lucene refuses, e.g., new doc values on an existing field). Such an index is
     * started afresh; the node then rebuilds it from the change topic (ADR 0003).
     */
    private static boolean sameFormat(Directory directory, Path path) throws IOException {
        String found = SegmentInfos.readLatestCommit(directory).getUserData().get(FORMAT_KEY);
        if (FORMAT.equals(found)) {
            return true;
        }
        log.warn("Index at {} has format {} but this build writes format {}: starting a fresh index, "
                + "rebuilt from the change topic", path, found, FORMAT);
        return false;
    }

    SearchAnalysis analysis() {
        return analysis;
    }

    /**
     * Bulk mode on or off; the indexer turns it on while it is behind the change stream. While
     * on, nobody searches this node (it is not ready), so freshness is traded for throughput.
     */
    public void bulkMode(boolean on) {
        if (bulk != on) {
            bulk = on;
            log.info("Index bulk mode {}", on ? "on: refresh every 5 s, commit every 30 s" : "off");
            if (!on) {
                refresh();
            }
        }
    }

    public boolean inBulkMode() {
        return bulk;
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
        synchronized (writeLock) {
            DeleteTombstones.Tombstone tombstone = tombstones.get(post.id());
            if (tombstone != null && post.version() <= tombstone.version()) {
                return new Applied(Outcome.STALE, post.version(), null, null, PostCounters.NONE); // no resurrection
            }
            Indexed current = indexed(post.id());
            if (current != null && current.version() > post.version()) {
                return new Applied(Outcome.STALE, current.version(), null, null, current.counters());
            }
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
                writer.updateDocument(PostFields.idTerm(post.id()), PostFields.toDocument(post, counters));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            unrefreshed.put(post.id(), new Indexed(post.version(), counters.bucket(), counters, post.title(), post.categoryId()));
            tombstones.remove(post.id());
            return new Applied(Outcome.APPLIED, post.version(), post.title(), post.categoryId(), counters);
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

    /** Caller holds writeLock. Rewrites the counters' doc values if the bucket moved. */
    private Applied writeCounters(long id, Indexed current, PostCounters counters) {
        if (counters.bucket() == current.bucket()) {
            // Like before ADR 0080: a change the ranking cannot see writes nothing. The index
            // keeps the older counts (and counter version): replays compare against those.
            return new Applied(Outcome.UNCHANGED, current.version(), current.title(), current.categoryId(), counters);
        }
        try {
            writer.updateDocValues(PostFields.idTerm(id), PostFields.counterUpdates(counters));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        unrefreshed.put(id, new Indexed(current.version(), counters.bucket(), counters, current.title(), current.categoryId()));
        return new Applied(Outcome.APPLIED, current.version(), current.title(), current.categoryId(), counters);
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
            unrefreshed.put(id, DELETED);
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

    /** Makes every write so far visible to searches before returning (in bulk mode: at most every 5 s). */
    public void refresh() {
        synchronized (writeLock) {
            if (bulk && clock.millis() - lastRefreshMillis < BULK_REFRESH_MILLIS) {
                return;
            }
            try {
                searchers.maybeRefreshBlocking();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            unrefreshed.clear();
            lastRefreshMillis = clock.millis();
        }
    }

    /**
     * Durably commits all writes so far, recording {@code userData} with them. In bulk mode the
     * data is recorded at once but the commit (an fsync of every new segment) happens at most
     * every 30 s, or at close.
     */
    public void commit(Map<String, String> userData) {
        synchronized (writeLock) {
            lastUserData = Map.copyOf(userData);
            Map<String, String> with = new HashMap<>(userData);
            with.put(FORMAT_KEY, FORMAT);
            tombstones.addTo(with);
            pending.addTo(with);
            Map<String, String> data = Map.copyOf(with);
            writer.setLiveCommitData(data.entrySet());
            long now = clock.millis();
            if (bulk && now - lastCommitMillis < BULK_COMMIT_MILLIS) {
                return;
            }
            try {
                writer.commit();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            lastCommitMillis = now;
            committedUserData = data;
        }
    }

    /** The user data of the last durable commit (empty for a new index). */
    public Map<String, String> committedUserData() {
        return committedUserData;
    }

    public boolean isOpen() {
        return !closed && writer.isOpen();
    }

    /** Document counts as of the current searcher. */
    public DocCounts docCounts() {
        IndexSearcher searcher = acquire();
        try {
            return new DocCounts(searcher.getIndexReader().numDocs(), searcher.getIndexReader().maxDoc());
        } finally {
            release(searcher);
        }
    }

    /**
     * The versions the current searcher holds for {@code ids} (absent ids are left out): what a
     * search on this node sees right now. Used to measure freshness without a full scan.
     */
    public Map<Long, Long> visibleVersions(Collection<Long> ids) {
        IndexSearcher searcher = acquire();
        try {
            Map<Long, Long> found = new java.util.TreeMap<>();
            for (long id : ids) {
                IndexedVersions.Found hit = IndexedVersions.find(searcher.getIndexReader(), id);
                if (hit != null) {
                    found.put(id, hit.version());
                }
            }
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            release(searcher);
        }
    }

    /** Every live document's id and version, for consistency checks across nodes (doc values: fast at 1M). */
    public IndexSnapshot snapshot() {
        IndexSearcher searcher = acquire();
        try {
            return IndexedVersions.snapshot(searcher.getIndexReader());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            release(searcher);
        }
    }

    /**
     * Commits what was written (with the last user data set) and closes
     * searcher, writer and directory in that order. Safe to call twice.
     */
    @Override
    public void close() throws IOException {
        if (!beginClose()) {
            return;
        }
        synchronized (writeLock) {
            try {
                if (writer.isOpen()) {
                    Map<String, String> with = new HashMap<>(lastUserData);
                    with.put(FORMAT_KEY, FORMAT);
                    tombstones.addTo(with);
                    pending.addTo(with);
                    writer.setLiveCommitData(with.entrySet());
                    writer.commit();
                }
            } finally {
                IOUtils.close(searchers, writer, directory);
            }
        }
        log.info("Closed post index");
    }

    /**
     * Closes without committing anything since the last commit: what a {@code kill -9} leaves
     * on disk (tests and drills reopen from it). Not for normal shutdown, which is {@link #close}.
     */
    public void closeWithoutCommit() throws IOException {
        if (!beginClose()) {
            return;
        }
        synchronized (writeLock) {
            try {
                writer.rollback();
            } finally {
                IOUtils.close(searchers, directory);
            }
        }
    }

    /** Marks the index closed; false if it was closed already. */
    private boolean beginClose() {
        synchronized (writeLock) {
            if (closed) {
                return false;
            }
            closed = true;
            return true;
        }
    }

    @Override
    public IndexSearcher acquire() {
        try {
            return searchers.acquire();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void release(IndexSearcher searcher) {
        try {
            searchers.release(searcher);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Version and bucket of the live document with this id, or null. Must be called with writeLock held. */
    private Indexed indexed(long id) {
        Indexed pending = unrefreshed.get(id);
        if (pending != null) {
            return pending == DELETED ? null : pending;
        }
        IndexSearcher searcher = acquire();
        try {
            IndexedVersions.Found found = IndexedVersions.find(searcher.getIndexReader(), id);
            return found == null ? null
                    : new Indexed(found.version(), found.bucket(), found.counters(), found.title(), found.categoryId());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            release(searcher);
        }
    }

    /**
     * A refresh that does not wait for the writer ({@link IndexRefresher}, every
     * {@code refresh-interval}). In bulk mode at most every {@link #BULK_REFRESH_MILLIS}: each
     * refresh, this one included, restarts that wait.
     *
     * @return whether it refreshed
     */
    boolean refreshIfDue() {
        if (closed || bulk && clock.millis() - lastRefreshMillis < BULK_REFRESH_MILLIS) {
            return false;
        }
        try {
            if (searchers.maybeRefresh()) {
                lastRefreshMillis = clock.millis();
                return true;
            }
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
