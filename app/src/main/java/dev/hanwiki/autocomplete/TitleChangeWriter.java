package dev.hanwiki.autocomplete;

import dev.hanwiki.change.PostsIndexed;
import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import dev.hanwiki.search.Popularity;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;

/**
 * Keeps the autocomplete keys in step with the change stream. The node's indexer publishes
 * {@link PostsIndexed} after each applied batch; this listener only copies the changes into a
 * map keyed by post id (a later change of a post replaces an earlier one still waiting), so
 * the indexer thread is never held up by Redis. One writer thread drains the map and writes
 * each post to every current key version (two during a rebuild) with all posts of a round in
 * flight at once. A change that did not reach Redis goes back into the map and is retried
 * after {@code retryDelay} (doubling while rounds keep failing, up to 5 s); nothing is dropped
 * while the node runs.
 * <p>
 * Both nodes do this for every change: the writes are idempotent and version-guarded (see
 * {@link TitleStore}), so the second copy changes nothing (ADR 0036).
 */
final class TitleChangeWriter extends Background {

    private static final Logger log = LoggerFactory.getLogger(TitleChangeWriter.class);
    /** Posts per round: enough to batch, few enough that their scripts do not queue past their budget. */
    private static final int ROUND = 64;
    private static final long MAX_RETRY_DELAY_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final TitleStore store;
    private final KeyVersions versions;
    private final long retryDelayNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition waiting = lock.newCondition();
    private final Map<Long, PostsIndexed.Change> pending = new LinkedHashMap<>();
    /** Changes that failed, with the earliest time to retry them. */
    private final Map<Long, PostsIndexed.Change> retry = new LinkedHashMap<>();
    private long retryAt;
    /** Rounds in a row with failures: the retry delay doubles with each, up to 5 s. */
    private int failingRounds;
    private final Counter written;
    private final Counter failed;

    TitleChangeWriter(TitleStore store, KeyVersions versions, AutocompleteSettings settings, MeterRegistry meters) {
        super("autocomplete-writer", Phases.SERVING, Duration.ofSeconds(10));
        this.store = store;
        this.versions = versions;
        this.retryDelayNanos = settings.retryDelay().toNanos();
        this.written = Counter.builder("hanwiki.autocomplete.changes").tag("outcome", "written").register(meters);
        this.failed = Counter.builder("hanwiki.autocomplete.changes").tag("outcome", "retried").register(meters);
        Gauge.builder("hanwiki.autocomplete.changes.pending", this, TitleChangeWriter::backlog).register(meters);
    }

    /** Runs on the indexer thread: must be quick and must not throw. */
    @EventListener
    void on(PostsIndexed event) {
        if (event.changes().isEmpty()) {
            return;
        }
        lock.lock();
        try {
            for (PostsIndexed.Change change : event.changes()) {
                pending.put(change.postId(), change);
                retry.remove(change.postId()); // superseded: the indexer never hands over an older change
            }
            waiting.signal();
        } finally {
            lock.unlock();
        }
    }

    int backlog() {
        lock.lock();
        try {
            return pending.size() + retry.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    protected void onStart() {
        submit(this::run);
    }

    /** Wakes the writer waiting for changes; a round in flight finishes (its writes have a 10 s budget). */
    @Override
    protected void beforeStop() {
        lock.lock();
        try {
            waiting.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        while (running()) {
            try {
                List<PostsIndexed.Change> round = next();
                if (!round.isEmpty()) {
                    write(round);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.warn("Autocomplete writer round failed; its changes will be retried", e);
            }
        }
    }

    /** Up to {@link #ROUND} changes: new ones first, then due retries. */
    private List<PostsIndexed.Change> next() throws InterruptedException {
        lock.lock();
        try {
            while (running()) {
                List<PostsIndexed.Change> round = new ArrayList<>(ROUND);
                take(pending, round);
                if (!retry.isEmpty() && System.nanoTime() - retryAt >= 0) {
                    for (var it = retry.entrySet().iterator(); it.hasNext() && round.size() < ROUND; ) {
                        var e = it.next();
                        if (round.stream().noneMatch(c -> c.postId() == e.getKey())) {
                            round.add(e.getValue());
                        }
                        it.remove();
                    }
                }
                if (!round.isEmpty()) {
                    return round;
                }
                long wait = retry.isEmpty() ? TimeUnit.MILLISECONDS.toNanos(500) : Math.max(1, retryAt - System.nanoTime());
                waiting.awaitNanos(wait);
            }
            return List.of();
        } finally {
            lock.unlock();
        }
    }

    private static void take(Map<Long, PostsIndexed.Change> from, List<PostsIndexed.Change> into) {
        for (var it = from.values().iterator(); it.hasNext() && into.size() < ROUND; ) {
            into.add(it.next());
            it.remove();
        }
    }

    private void write(List<PostsIndexed.Change> round) {
        // No version known yet (nothing built, or the shards were not reachable at start):
        // keep the changes until there is one; the first build covers them too, twice is harmless.
        List<Long> targets = versions.writeTargets();
        List<CompletableFuture<Boolean>> results = new ArrayList<>(round.size());
        for (PostsIndexed.Change change : round) {
            results.add(targets.isEmpty() ? CompletableFuture.completedFuture(false) : writeToAll(targets, change));
        }
        List<PostsIndexed.Change> again = new ArrayList<>();
        for (int i = 0; i < round.size(); i++) {
            boolean ok;
            try {
                ok = results.get(i).get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                ok = false;
            }
            if (ok) {
                written.increment();
            } else {
                failed.increment();
                again.add(round.get(i));
            }
        }
        if (again.isEmpty()) {
            failingRounds = 0;
        } else {
            lock.lock();
            try {
                for (PostsIndexed.Change change : again) {
                    // A newer change of the same post that arrived meanwhile supersedes this one;
                    // of two failed ones, the later wins (a delete over an upsert of its version).
                    if (!pending.containsKey(change.postId())) {
                        retry.merge(change.postId(), change, TitleChangeWriter::later);
                    }
                }
                failingRounds = Math.min(failingRounds + 1, 10);
                retryAt = System.nanoTime() + Math.min(MAX_RETRY_DELAY_NANOS, retryDelayNanos << (failingRounds - 1));
            } finally {
                lock.unlock();
            }
        }
    }

    static PostsIndexed.Change later(PostsIndexed.Change a, PostsIndexed.Change b) {
        if (a.version() != b.version()) {
            return a.version() > b.version() ? a : b;
        }
        return a.deleted() ? a : b;
    }

    private CompletableFuture<Boolean> writeToAll(List<Long> targets, PostsIndexed.Change change) {
        TitleStore.Entry entry = new TitleStore.Entry(change.postId(), change.title(), change.version(),
                Popularity.score(change.viewCount(), change.likeCount()));
        TitleStore.Mode mode = change.deleted() ? TitleStore.Mode.DELETE : TitleStore.Mode.UPSERT;
        CompletableFuture<Boolean> all = CompletableFuture.completedFuture(true);
        for (long version : targets) {
            CompletableFuture<Boolean> one = store.write(version, entry, mode);
            all = all.thenCombine(one, Boolean::logicalAnd);
        }
        return all;
    }
}
