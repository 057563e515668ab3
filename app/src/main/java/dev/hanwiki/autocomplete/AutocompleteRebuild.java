package dev.hanwiki.autocomplete;

import dev.hanwiki.cache.ShardedRedis;
import dev.hanwiki.change.IndexCatchUp;
import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import dev.hanwiki.lifecycle.YieldToRequests;
import dev.hanwiki.platform.NodeSettings;
import dev.hanwiki.platform.RequestPressure;
import dev.hanwiki.search.IndexedTitles;
import dev.hanwiki.search.Popularity;
import dev.hanwiki.search.PostIndex;
import io.lettuce.core.SetArgs;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a whole new key version from this node's index and switches every node to it at
 * once. The steps, and why nobody sees a half-built version:
 * <ol>
 *   <li>take the rebuild lock (one rebuild at a time across nodes);</li>
 *   <li>announce the new version as "building": from here on this node's change writer (and,
 *       within one poll, the other node's) writes every change to BOTH versions;</li>
 *   <li>scan this node's index (one point-in-time view) and write every title into the new
 *       version, never over a newer record a live change wrote meanwhile. A change the scan
 *       did not see is published by this node's indexer after the scan's view was taken, so
 *       the writer puts it into the new version: nothing arriving during the build is lost;</li>
 *   <li>only when every write succeeded, set the version pointer on every shard; readers move
 *       from one complete version to the other (a node reads the pointer at most one poll
 *       late, and the old version stays until a grace period has passed);</li>
 *   <li>delete the old version's keys, shard by shard.</li>
 * </ol>
 * If any write fails, or the node stops meanwhile (the build runs on this bean's own thread and
 * gives up at the next title when the bean stops), the build is abandoned and the current
 * version stays in use.
 * <p>
 * A rebuild is background work, but most of its cost is not on its own thread (the Lettuce
 * threads that send its writes, the Redis servers that run them), so a nice value cannot lower
 * it: between two batches it pauses while the node's requests are short of CPU
 * ({@link YieldToRequests}), at most twice its own working time in all. After a crash of every
 * cache shard under 100 req/s, a rebuild of 100k titles took 41 s, in the very minute the caches
 * refill; over that minute the rebuilding node's Lettuce threads used 6.8 s of CPU and the three
 * shards 13 s (rebuild and refill together), all at normal priority (ADR 0093, session-20
 * amendment).
 */
final class AutocompleteRebuild extends Background {

    private static final Logger log = LoggerFactory.getLogger(AutocompleteRebuild.class);
    /** Lock and "building" marker expire this long after the builder stops refreshing them (it died). */
    private static final Duration LOCK_TTL = Duration.ofMinutes(2);
    private static final long REFRESH_MILLIS = 10_000;
    /** Tries per batch; the waits between them grow to 2.5 s, past a tripped breaker's open window. */
    private static final int ATTEMPTS = 10;
    /** Most pause per unit of the rebuild's own working time, and the longest single pause. */
    private static final double MAX_PAUSE_SHARE = 2.0;
    private static final Duration PAUSE_STEP = Duration.ofMillis(100);

    /** What an operator sees while and after a rebuild runs. */
    record Progress(String state, long version, long total, long written, String startedAt, String finishedAt,
            String error) {
    }

    private final PostIndex index;
    private final IndexCatchUp catchUp;
    private final TitleStore store;
    private final KeyVersions versions;
    private final RequestPressure pressure;
    private final AutocompleteSettings settings;
    private final RebuildLock lock;
    private final AtomicReference<Progress> progress = new AtomicReference<>(
            new Progress("IDLE", 0, 0, 0, null, null, null));
    private final Object starting = new Object();
    private volatile Future<?> builder;

    AutocompleteRebuild(PostIndex index, IndexCatchUp catchUp, TitleStore store, KeyVersions versions, AutocompleteSettings settings,
            NodeSettings node, RequestPressure pressure) {
        super("autocomplete-rebuild", Phases.SERVING, Duration.ofSeconds(20));
        this.pressure = pressure;
        this.index = index;
        this.catchUp = catchUp;
        this.store = store;
        this.versions = versions;
        this.settings = settings;
        this.lock = new RebuildLock(store.redis(), node.id(), LOCK_TTL);
    }

    Progress progress() {
        return progress.get();
    }

    /**
     * Starts a rebuild in the background. Returns null when it started, otherwise why not: one
     * is already running here or elsewhere (the lock is held), the lock's shard cannot be
     * reached, or this node's index is still catching up (it would build from a partial index).
     */
    String begin() {
        synchronized (starting) {
            if (!running()) {
                return "this node is stopping";
            }
            if (builder != null && !builder.isDone()) {
                return "a rebuild is already running on this node";
            }
            if (!catchUp.caughtUp()) {
                return "this node's index is still catching up with the change stream; retry when it is ready";
            }
            long version = Math.max(System.currentTimeMillis(), versions.current() + 1);
            RebuildLock.Outcome taken = RebuildLock.Outcome.UNAVAILABLE;
            for (int attempt = 1; attempt <= ATTEMPTS && taken == RebuildLock.Outcome.UNAVAILABLE; attempt++) {
                taken = lock.take(version);
                if (taken == RebuildLock.Outcome.UNAVAILABLE) {
                    sleep(Duration.ofMillis(100L * attempt));
                }
            }
            if (taken == RebuildLock.Outcome.UNAVAILABLE) {
                return "the shard holding the rebuild lock is unavailable";
            }
            if (taken == RebuildLock.Outcome.HELD) {
                return "a rebuild is already running (the lock is held)";
            }
            progress.set(new Progress("RUNNING", version, IndexedTitles.count(index), 0, Instant.now().toString(), null,
                    null));
            builder = submit(() -> run(version));
            return null;
        }
    }

    /** Builds run only when asked ({@link #begin}). */
    @Override
    protected void onStart() {
    }

    private void run(long version) {
        Instant started = Instant.now();
        YieldToRequests pacing = new YieldToRequests(pressure::shortOfCpu, MAX_PAUSE_SHARE, PAUSE_STEP);
        try {
            build(version, pacing);
            log.info("Autocomplete keys rebuilt as version {} in {} ({} of it paused for requests short of CPU)",
                    version, Duration.between(started, Instant.now()), pacing.paused());
        } catch (RuntimeException e) {
            versions.buildAbandonedHere();
            retried(() -> everyShard(c -> c.del(TitleStore.BUILDING_KEY)));
            Progress p = progress.get();
            progress.set(new Progress("FAILED", version, p.total(), p.written(), p.startedAt(), Instant.now().toString(),
                    e.getMessage()));
            log.warn("Autocomplete rebuild of version {} abandoned: {}", version, e.getMessage());
            VersionedKeys.delete(store.redis(), v -> v == version);
        } finally {
            lock.release(version);
        }
    }

    private void build(long version, YieldToRequests pacing) {
        versions.buildingHere(version);
        require(retried(() -> everyShard(c -> c.set(TitleStore.BUILDING_KEY, TitleStore.bytes(Long.toString(version)),
                SetArgs.Builder.px(LOCK_TTL.toMillis())))), "announce the build");
        long[] refreshed = {System.currentTimeMillis()};
        AtomicLong written = new AtomicLong();
        List<TitleStore.Entry> batch = new ArrayList<>(settings.rebuildBatch());
        long[] batchStarted = {System.nanoTime()};
        IndexedTitles.forEach(index, t -> {
            if (!running()) {
                throw new IllegalStateException("the node is stopping");
            }
            batch.add(new TitleStore.Entry(t.id(), t.title(), t.version(), Popularity.score(t.viewCount(), t.likeCount())));
            if (batch.size() >= settings.rebuildBatch()) {
                writeBatch(version, batch);
                written.addAndGet(batch.size());
                batch.clear();
                Progress p = progress.get();
                progress.set(new Progress("RUNNING", version, p.total(), written.get(), p.startedAt(), null, null));
                if (System.currentTimeMillis() - refreshed[0] > REFRESH_MILLIS) {
                    refreshed[0] = System.currentTimeMillis();
                    keepAlive(version);
                }
                Duration yield = pacing.pauseAfter(System.nanoTime() - batchStarted[0]);
                if (!yield.isZero()) {
                    sleep(yield);
                }
                batchStarted[0] = System.nanoTime();
            }
        });
        writeBatch(version, batch);
        written.addAndGet(batch.size());
        long previous = versions.current();
        require(retried(() -> everyShard(c -> c.set(TitleStore.VERSION_KEY, TitleStore.bytes(Long.toString(version))))),
                "switch versions");
        versions.switchedHere(version);
        retried(() -> everyShard(c -> c.del(TitleStore.BUILDING_KEY)));
        Progress p = progress.get();
        progress.set(new Progress("SWITCHED", version, p.total(), written.get(), p.startedAt(), null, null));
        // Readers still on the old version (one poll late at most) finish before it goes.
        if (!pause(settings.pointerPoll().multipliedBy(4).plusSeconds(1))) {
            progress.set(new Progress("DONE", version, p.total(), written.get(), p.startedAt(), Instant.now().toString(), null));
            log.info("Autocomplete version {} replaces {}; the node is stopping: the next rebuild removes the old keys",
                    version, previous);
            return;
        }
        keepAlive(version);
        // Only older versions: a newer one can only be a later build that took an expired lock.
        long removed = VersionedKeys.delete(store.redis(), v -> v < version);
        progress.set(new Progress("DONE", version, p.total(), written.get(), p.startedAt(), Instant.now().toString(), null));
        log.info("Autocomplete version {} replaces {}: {} titles, {} old keys removed", version, previous, written.get(), removed);
    }

    private void writeBatch(long version, List<TitleStore.Entry> batch) {
        List<TitleStore.Entry> todo = List.copyOf(batch);
        // The first attempt must not pass a live change; a retry of an entry whose first write
        // half-landed may rewrite its own (equal) version, still never a newer one.
        TitleStore.Mode mode = TitleStore.Mode.SNAPSHOT;
        for (int attempt = 1; attempt <= ATTEMPTS && !todo.isEmpty(); attempt++) {
            List<CompletableFuture<Boolean>> writes = new ArrayList<>(todo.size());
            for (TitleStore.Entry e : todo) {
                writes.add(store.write(version, e, mode));
            }
            List<TitleStore.Entry> failed = new ArrayList<>();
            for (int i = 0; i < todo.size(); i++) {
                if (!writes.get(i).join()) {
                    failed.add(todo.get(i));
                }
            }
            todo = failed;
            mode = TitleStore.Mode.UPSERT;
            if (!todo.isEmpty()) {
                sleep(Duration.ofMillis(Math.min(2_500L, 100L << Math.min(attempt, 5))));
            }
        }
        if (!todo.isEmpty()) {
            throw new IllegalStateException(todo.size() + " titles could not be written (a shard is down?)");
        }
    }

    private boolean everyShard(java.util.function.Function<io.lettuce.core.api.async.RedisAsyncCommands<String, byte[]>,
            io.lettuce.core.RedisFuture<?>> command) {
        ShardedRedis redis = store.redis();
        List<CompletableFuture<Object>> all = new ArrayList<>();
        for (String shard : redis.shardNames()) {
            all.add(redis.onShard(shard, c -> {
                @SuppressWarnings("unchecked")
                io.lettuce.core.RedisFuture<Object> f = (io.lettuce.core.RedisFuture<Object>) command.apply(c);
                return f;
            }, null));
        }
        return all.stream().allMatch(f -> f.join() != null);
    }

    /** Extends the lock and the "building" marker while the build is alive. */
    private void keepAlive(long version) {
        lock.refresh(version);
        everyShard(c -> c.pexpire(TitleStore.BUILDING_KEY, LOCK_TTL.toMillis()));
    }

    /**
     * A step that must reach every shard, tried a few times (a command can time out under
     * load); gives up early when the node stops.
     */
    private boolean retried(java.util.function.BooleanSupplier step) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            if (step.getAsBoolean()) {
                return true;
            }
            if (!pause(Duration.ofMillis(200L * attempt))) {
                return false;
            }
        }
        return false;
    }

    private static void require(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("could not " + what + " on every shard");
        }
    }

    /** Waits between attempts; a stop ends the build (or the start) at once. */
    private void sleep(Duration d) {
        if (!pause(d)) {
            throw new IllegalStateException("the node is stopping");
        }
    }
}
