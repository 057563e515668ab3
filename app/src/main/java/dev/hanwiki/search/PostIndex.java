package dev.hanwiki.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
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
 * Sole owner of this node's Lucene index: it opens the directory, the one IndexWriter and the
 * SearcherManager, and closes them. This is the read face every feature may use: searchers
 * from any thread through {@link #acquire()} and {@link #release} in {@code finally}, counts,
 * versions and snapshots for checks. Writes go through {@link #writer()}, which only the
 * indexer uses ({@link PostIndexWriter}; {@code ModuleGraphTest} refuses any other module).
 * {@link IndexRefresher} refreshes the searchers every {@code refresh-interval}. Merges run in
 * the background (Lucene's ConcurrentMergeScheduler). Commits carry the indexer's user data
 * (the Kafka offsets the index reflects), which is how a restart resumes.
 */
public class PostIndex implements Searchers, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PostIndex.class);
    /**
     * Commit user data key of the document schema version; bump {@link #FORMAT} on incompatible
     * changes, including a new list of common terms (3: word pairs of common terms, ADR 0024;
     * 4: popularity and counts in updatable doc values, no FeatureField, ADR 0080).
     */
    static final String FORMAT_KEY = "hanwiki.index.format";
    static final String FORMAT = "4";

    private final SearchAnalysis analysis;
    private final Directory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final PostIndexWriter writes;
    private final Duration counterWriteInterval;
    private volatile boolean closed;

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
        Path path = settings.indexPath().toAbsolutePath();
        Files.createDirectories(path);
        this.directory = FSDirectory.open(path);
        boolean fresh = !DirectoryReader.indexExists(directory) || !sameFormat(directory, path);
        IndexWriterConfig config = new IndexWriterConfig(analysis.indexAnalyzer())
                .setOpenMode(fresh ? IndexWriterConfig.OpenMode.CREATE : IndexWriterConfig.OpenMode.APPEND)
                .setCodec(new HanwikiCodec())
                .setRAMBufferSizeMB(settings.ramBufferMb())
                .setMergeScheduler(new LowPriorityMerges(settings.mergeNiceness()));
        this.writer = new IndexWriter(directory, config);
        // Read after the writer holds write.lock: nobody else can commit underneath us.
        Map<String, String> committed = fresh ? Map.of() : Map.copyOf(SegmentInfos.readLatestCommit(directory).getUserData());
        this.searchers = new SearcherManager(writer, true, false, null);
        this.counterWriteInterval = settings.counterWriteInterval();
        this.writes = new PostIndexWriter(writer, searchers, committed, counterWriteInterval, clock);
        Map<String, String> shown = new HashMap<>(committed);
        shown.remove(DeleteTombstones.KEY);
        shown.remove(PendingCounters.KEY);
        shown.remove(UnwrittenCounters.KEY);
        log.info("Opened post index at {} ({} docs, {} delete tombstones; committed user data: {})", path,
                writer.getDocStats().numDocs, writes.tombstoneCount(), shown);
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

    /** The write side, for the indexer alone (see {@link PostIndexWriter}). */
    public PostIndexWriter writer() {
        return writes;
    }

    /** The user data of the last durable commit (empty for a new index): where the indexer resumes. */
    public Map<String, String> committedUserData() {
        return writes.commits().committedUserData();
    }

    /** {@link IndexRefresher}'s tick. */
    /**
     * {@code listener} runs after each refresh that showed held counter changes (likes and view
     * flushes that moved a page's popularity, written together: {@code UnwrittenCounters}); they
     * were announced ({@code PostsIndexed}) when decided, up to {@code counter-write-interval} earlier.
     */
    public void onCountersShown(Runnable listener) {
        writes.commits().onCountersShown(listener);
    }

    /** How long decided counter changes may wait before searches see them. */
    public Duration counterWriteInterval() {
        return counterWriteInterval;
    }

    boolean refreshIfDue() {
        return !closed && writes.commits().refreshIfDue();
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
     * Commits what was written (with the indexer's last user data) and closes searcher, writer
     * and directory in that order. Safe to call twice.
     */
    @Override
    public void close() throws IOException {
        if (!beginClose()) {
            return;
        }
        try {
            writes.commits().close(true);
        } finally {
            IOUtils.close(searchers, writer, directory);
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
        try {
            writes.commits().close(false);
        } finally {
            IOUtils.close(searchers, directory);
        }
    }

    /** Marks the index closed; false if it was closed already. */
    private synchronized boolean beginClose() {
        if (closed) {
            return false;
        }
        closed = true;
        return true;
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
}
