package dev.hanwiki.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.ko.KoreanAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.IOUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Sole owner of this node's Lucene index: the directory, the one IndexWriter, the
 * SearcherManager and the thread that refreshes it every {@code refresh-interval}. Writes come
 * from a single caller (the change consumer); searches from any thread. Commits carry the
 * caller's user data (the Kafka offsets the index reflects), which is how a restart resumes.
 */
@Component
public class PostIndex implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PostIndex.class);
    /** Total hits are counted exactly only up to here; beyond it a lower bound is enough. */
    private static final int TOTAL_HITS_THRESHOLD = 1000;
    private static final long ABSENT = Long.MIN_VALUE;

    private final Analyzer analyzer = new KoreanAnalyzer();
    private final Directory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final ScheduledExecutorService refresher;
    private final Object writeLock = new Object();
    /** Versions written since the last blocking refresh, which the searcher cannot see yet. */
    private final Map<Long, Long> unrefreshedVersions = new HashMap<>();
    private volatile Map<String, String> committedUserData;
    private volatile boolean closed;

    public PostIndex(SearchSettings settings) throws IOException {
        Path path = settings.indexPath().toAbsolutePath();
        Files.createDirectories(path);
        this.directory = FSDirectory.open(path);
        this.writer = new IndexWriter(directory,
                new IndexWriterConfig(analyzer).setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND));
        // Read after the writer holds write.lock: nobody else can commit underneath us.
        this.committedUserData = DirectoryReader.indexExists(directory)
                ? Map.copyOf(SegmentInfos.readLatestCommit(directory).getUserData())
                : Map.of();
        this.searchers = new SearcherManager(writer, true, false, null);
        this.refresher = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("post-index-refresher").daemon().factory());
        long interval = settings.refreshInterval().toMillis();
        refresher.scheduleWithFixedDelay(this::refreshInBackground, interval, interval, TimeUnit.MILLISECONDS);
        log.info("Opened post index at {} (committed user data: {})", path, committedUserData);
    }

    /** The analyzer documents were indexed with; queries must be analyzed the same way. */
    Analyzer analyzer() {
        return analyzer;
    }

    /**
     * Adds or replaces the document of {@code post.id()}, unless the index already holds a
     * newer version (a replayed or re-delivered event). The same version is applied again:
     * counters such as likes may change without a version bump.
     *
     * @return false if the event was older than what the index holds and was ignored
     */
    public boolean upsert(PostDocument post) {
        synchronized (writeLock) {
            long current = currentVersion(post.id());
            if (current != ABSENT && current > post.version()) {
                return false;
            }
            try {
                writer.updateDocument(PostFields.idTerm(post.id()), PostFields.toDocument(post));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            unrefreshedVersions.put(post.id(), post.version());
            return true;
        }
    }

    public void delete(long id) {
        synchronized (writeLock) {
            try {
                writer.deleteDocuments(PostFields.idTerm(id));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            unrefreshedVersions.remove(id);
        }
    }

    /** Makes every write so far visible to searches before returning. */
    public void refresh() {
        synchronized (writeLock) {
            try {
                searchers.maybeRefreshBlocking();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            unrefreshedVersions.clear();
        }
    }

    /** Durably commits all writes so far, recording {@code userData} with them. */
    public void commit(Map<String, String> userData) {
        synchronized (writeLock) {
            Map<String, String> data = Map.copyOf(userData);
            writer.setLiveCommitData(data.entrySet());
            try {
                writer.commit();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
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
     * Runs {@code query} and returns the documents at {@code [offset, offset + limit)} by score.
     * Only {@code offset + limit + 1} hits are collected: the extra one answers "is there a
     * next page" without counting every match.
     */
    IndexPage search(Query query, int offset, int limit) throws IOException {
        int window = offset + limit + 1;
        IndexSearcher searcher = acquire();
        try {
            TopDocs top = searcher.search(query, new TopScoreDocCollectorManager(window, Math.max(window, TOTAL_HITS_THRESHOLD)));
            ScoreDoc[] docs = top.scoreDocs;
            StoredFields stored = searcher.storedFields();
            List<PostDocument> hits = new ArrayList<>(limit);
            for (int i = offset; i < Math.min(docs.length, offset + limit); i++) {
                hits.add(PostFields.fromStored(stored.document(docs[i].doc)));
            }
            return new IndexPage(hits, docs.length > offset + limit);
        } finally {
            release(searcher);
        }
    }

    /** Every live document's id and version, for consistency checks across nodes. */
    /**
     * The versions the current searcher holds for {@code ids} (absent ids are left out): what a
     * search on this node sees right now. Used to measure freshness without a full scan.
     */
    public Map<Long, Long> visibleVersions(Collection<Long> ids) {
        IndexSearcher searcher = acquire();
        try {
            Map<Long, Long> found = new java.util.TreeMap<>();
            for (long id : ids) {
                TopDocs top = searcher.search(new TermQuery(PostFields.idTerm(id)), 1);
                if (top.scoreDocs.length > 0) {
                    Document doc = searcher.storedFields().document(top.scoreDocs[0].doc, Set.of(PostFields.VERSION));
                    found.put(id, PostFields.longValue(doc, PostFields.VERSION));
                }
            }
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            release(searcher);
        }
    }

    public IndexSnapshot snapshot() {
        IndexSearcher searcher = acquire();
        try {
            List<DocVersion> docs = new ArrayList<>();
            for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
                Bits live = leaf.reader().getLiveDocs();
                StoredFields stored = leaf.reader().storedFields();
                for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
                    if (live == null || live.get(doc)) {
                        Document d = stored.document(doc, Set.of(PostFields.ID, PostFields.VERSION));
                        docs.add(new DocVersion(Long.parseLong(d.get(PostFields.ID)), PostFields.longValue(d, PostFields.VERSION)));
                    }
                }
            }
            docs.sort(Comparator.comparingLong(DocVersion::id).thenComparingLong(DocVersion::version));
            return new IndexSnapshot(searcher.getIndexReader().numDocs(), searcher.getIndexReader().maxDoc(), docs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            release(searcher);
        }
    }

    /**
     * Stops the refresher, commits what was written (with the last user data set) and closes
     * searcher, writer and directory in that order. Safe to call twice.
     */
    @Override
    public void close() throws IOException {
        synchronized (writeLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        // No shutdownNow(): interrupting a thread inside Lucene I/O can close the index files.
        refresher.shutdown();
        try {
            if (!refresher.awaitTermination(5, TimeUnit.SECONDS)) {
                log.warn("Index refresher did not stop within 5 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (writeLock) {
            try {
                if (writer.isOpen()) {
                    writer.commit();
                }
            } finally {
                IOUtils.close(searchers, writer, directory, analyzer);
            }
        }
        log.info("Closed post index");
    }

    /** Must be called with writeLock held. */
    private long currentVersion(long id) {
        Long pending = unrefreshedVersions.get(id);
        if (pending != null) {
            return pending;
        }
        IndexSearcher searcher = acquire();
        try {
            TopDocs top = searcher.search(new TermQuery(PostFields.idTerm(id)), 1);
            if (top.scoreDocs.length == 0) {
                return ABSENT;
            }
            Document doc = searcher.storedFields().document(top.scoreDocs[0].doc, Set.of(PostFields.VERSION));
            return PostFields.longValue(doc, PostFields.VERSION);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            release(searcher);
        }
    }

    private IndexSearcher acquire() {
        try {
            return searchers.acquire();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void release(IndexSearcher searcher) {
        try {
            searchers.release(searcher);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void refreshInBackground() {
        try {
            searchers.maybeRefresh();
        } catch (IOException | RuntimeException e) {
            // Keep the schedule alive: a throwing task would silently cancel all future refreshes.
            log.warn("Background index refresh failed", e);
        }
    }
}
