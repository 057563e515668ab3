package dev.hanwiki.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.SearcherManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the writes of {@link PostIndexWriter} become visible (refreshes) and durable (commits,
 * with the caller's user data and what the writer adds to it: the format, tombstones, early
 * counters), and bulk mode, which spaces both out (ADR 0022). Shares the writer's lock.
 */
final class IndexCommits {

    static final long BULK_REFRESH_MILLIS = 5_000;
    static final long BULK_COMMIT_MILLIS = 30_000;
    private static final Logger log = LoggerFactory.getLogger(IndexCommits.class);

    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final Object writeLock;
    private final IndexedDocuments documents;
    private final UnwrittenCounters counters;
    /** Held counter changes reach the writer at a refresh at most this often ({@link UnwrittenCounters}). */
    private final long counterWriteMillis;
    private final Consumer<Map<String, String>> recorded;
    private final Clock clock;
    /** The caller's user data of the last commit request: the final commit records it again. */
    private Map<String, String> lastUserData;
    private volatile Map<String, String> committedUserData;
    private volatile boolean bulk;
    private volatile boolean closed;
    private volatile long lastRefreshMillis;
    private long lastCommitMillis;
    private volatile long lastCounterWriteMillis;
    /** Told after a refresh that showed held counter changes ({@link PostIndex#onCountersShown}). */
    private final List<Runnable> countersShown = new CopyOnWriteArrayList<>();

    IndexCommits(IndexWriter writer, SearcherManager searchers, Object writeLock, IndexedDocuments documents,
            UnwrittenCounters counters, long counterWriteMillis, Consumer<Map<String, String>> recorded, Map<String, String> committed, Clock clock) {
        this.writer = writer;
        this.searchers = searchers;
        this.writeLock = writeLock;
        this.documents = documents;
        this.counters = counters;
        this.counterWriteMillis = counterWriteMillis;
        this.recorded = recorded;
        this.clock = clock;
        this.lastUserData = committed;
        this.committedUserData = committed;
        this.lastRefreshMillis = clock.millis();
    }

    void bulkMode(boolean on) {
        if (bulk != on) {
            bulk = on;
            log.info("Index bulk mode {}", on ? "on: refresh every 5 s, commit every 30 s" : "off");
            if (!on) {
                refresh();
            }
        }
    }

    boolean inBulkMode() {
        return bulk;
    }

    void refresh() {
        synchronized (writeLock) {
            long now = clock.millis();
            if (bulk && now - lastRefreshMillis < BULK_REFRESH_MILLIS) {
                return;
            }
            try {
                boolean wrote = (now - lastCounterWriteMillis >= counterWriteMillis || counters.size() >= UnwrittenCounters.CAP)
                        && writeCounters(now);
                searchers.maybeRefreshBlocking();
                if (wrote) {
                    countersShown.forEach(Runnable::run);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            documents.refreshed();
            lastRefreshMillis = clock.millis();
        }
    }

    void commit(Map<String, String> userData) {
        synchronized (writeLock) {
            lastUserData = Map.copyOf(userData);
            Map<String, String> data = withRecorded(userData);
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
    Map<String, String> committedUserData() {
        return committedUserData;
    }

    /**
     * The final commit, with the last user data set; then no more writes. With {@code commit}
     * false (what a {@code kill -9} leaves), everything since the last commit is dropped.
     */
    void close(boolean commit) throws IOException {
        synchronized (writeLock) {
            closed = true;
            if (!writer.isOpen()) {
                return;
            }
            if (commit) {
                writer.setLiveCommitData(withRecorded(lastUserData).entrySet());
                writer.commit();
            } else {
                writer.rollback();
            }
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
            // Held counter changes are due whether or not the indexer has work: a like on a quiet
            // stack must still reach the ranking.
            long now = clock.millis();
            boolean wrote = false;
            if (counters.held() && now - lastCounterWriteMillis >= counterWriteMillis) {
                synchronized (writeLock) {
                    wrote = !closed && writeCounters(now);
                }
            }
            boolean refreshed = wrote ? refreshBlocking() : searchers.maybeRefresh();
            if (wrote) {
                countersShown.forEach(Runnable::run);
            }
            if (refreshed) {
                lastRefreshMillis = clock.millis();
            }
            return refreshed;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A refresh that waits for one in progress: the held counters just written must be shown. */
    private boolean refreshBlocking() throws IOException {
        searchers.maybeRefreshBlocking();
        return true;
    }

    void onCountersShown(Runnable listener) {
        countersShown.add(listener);
    }

    /** Caller holds the write lock. Whether any were written. */
    private boolean writeCounters(long now) throws IOException {
        boolean any = counters.size() > 0;
        if (any) {
            counters.writeTo(writer, documents);
        }
        lastCounterWriteMillis = now;
        return any;
    }

    private Map<String, String> withRecorded(Map<String, String> userData) {
        Map<String, String> with = new HashMap<>(userData);
        recorded.accept(with);
        return Map.copyOf(with);
    }
}
