package dev.hanwiki.cache;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A read-through cache in two tiers for one {@link CacheRegion}: L1 is this node's Caffeine
 * async cache, L2 the Redis shard that owns the key, then the origin. Caffeine's async
 * loading makes concurrent misses for one key share a single load per node (no hand-written
 * singleflight); that load tries L2 first and fills L2 after an origin load. Absent answers
 * (an empty Optional) are cached too, briefly, so a flood of lookups for missing ids stays
 * cheap. Redis trouble only ever turns into misses.
 */
public final class TieredCache<V> {

    /** Format version of every key and value; bump it when a cached shape changes. */
    public static final String FORMAT = "v4";
    private static final byte[] ABSENT = new byte[0];

    private final CacheRegion region;
    private final String prefix;
    private final ShardedRedis l2;
    private final ValueCodec<V> codec;
    private final AsyncCache<String, Entry<V>> l1;
    private final Counter l1Hits;
    private final Counter l2Hits;
    private final Counter originLoads;
    private final Counter staleL1;
    private final Counter staleL2;
    private final Counter uncached;
    private final Counter l1Evictions;
    private final Counter l2Evictions;

    /** A value (or its absence) with its serialized size, the L1 weight. */
    private record Entry<V>(Optional<V> value, int weight) {
    }

    public TieredCache(CacheRegion region, ShardedRedis l2, ValueCodec<V> codec, Executor loadExecutor,
            MeterRegistry meters) {
        this.region = region;
        this.prefix = "hw:" + FORMAT + ":" + region.name() + ":";
        this.l2 = l2;
        this.codec = codec;
        this.l1 = Caffeine.newBuilder()
                .executor(loadExecutor)
                .maximumWeight(region.l1MaxBytes())
                .<String, Entry<V>>weigher((key, entry) -> 64 + key.length() + entry.weight())
                .expireAfter(new JitteredExpiry<>(region))
                .recordStats()
                .buildAsync();
        CaffeineCacheMetrics.monitor(meters, l1, "hanwiki.cache.l1." + region.name());
        this.l1Hits = gets(meters, "l1");
        this.l2Hits = gets(meters, "l2");
        this.originLoads = gets(meters, "origin");
        this.staleL1 = Counter.builder("hanwiki.cache.l1.stale").tag("region", region.name())
                .description("L1 values found older than what this node knows now, treated as misses").register(meters);
        this.staleL2 = Counter.builder("hanwiki.cache.l2.stale").tag("region", region.name())
                .description("L2 values found older than what this node already knows, treated as misses").register(meters);
        this.uncached = Counter.builder("hanwiki.cache.uncached").tag("region", region.name())
                .description("origin answers served but not cached: older than a change this node has seen").register(meters);
        this.l1Evictions = evictions(meters, "l1");
        this.l2Evictions = evictions(meters, "l2");
    }

    private Counter evictions(MeterRegistry meters, String tier) {
        return Counter.builder("hanwiki.cache.evictions").tag("region", region.name()).tag("tier", tier)
                .description("entries dropped because the change stream said they changed").register(meters);
    }

    private Counter gets(MeterRegistry meters, String tier) {
        return Counter.builder("hanwiki.cache.gets").tag("region", region.name()).tag("tier", tier)
                .description("reads answered by each tier").register(meters);
    }

    /**
     * The value for {@code key}: from L1, else L2, else {@code origin} (run on the load
     * executor, once per node however many callers wait for it).
     */
    public CompletableFuture<Optional<V>> get(String key, Function<String, Optional<V>> origin) {
        return get(key, origin, value -> true);
    }

    /**
     * As {@link #get(String, Function)}, with a check of what the caller already knows about
     * the value's freshness (say, the version the change stream announced). An L1 or L2 value
     * that fails it is a miss; an origin answer that fails it (a replica behind the change stream)
     * is handed to the waiting callers but cached in neither tier.
     */
    public CompletableFuture<Optional<V>> get(String key, Function<String, Optional<V>> origin,
            Predicate<Optional<V>> current) {
        CompletableFuture<Entry<V>> held = l1.getIfPresent(key);
        if (held != null && held.isDone() && !held.isCompletedExceptionally() && !current.test(held.join().value())) {
            // Older than what this node knows now (L1 is otherwise dropped per change, not checked):
            // a miss. Another caller may have replaced it meanwhile; then that one counts.
            if (l1.asMap().remove(key, held)) {
                staleL1.increment();
            }
        }
        boolean[] loaded = {false};
        boolean[] cacheable = {true};
        CompletableFuture<Entry<V>> entry = l1.get(key, (k, executor) -> {
            loaded[0] = true;
            String redisKey = prefix + k;
            return l2.get(redisKey).thenApplyAsync(bytes -> {
                Entry<V> cached = bytes == null ? null : decodeOrNull(bytes);
                if (cached != null) {
                    if (current.test(cached.value())) {
                        l2Hits.increment();
                        return cached;
                    }
                    staleL2.increment();
                }
                originLoads.increment();
                Optional<V> value = origin.apply(k);
                byte[] encoded = value.map(codec::encode).orElse(ABSENT);
                if (current.test(value)) {
                    l2.set(redisKey, encoded, jittered(value.isPresent() ? region.l2Ttl() : region.negativeTtl()));
                } else {
                    uncached.increment();
                    cacheable[0] = false;
                }
                return new Entry<>(value, encoded.length);
            }, executor);
        });
        if (!loaded[0]) {
            l1Hits.increment();
            return entry.thenApply(Entry::value);
        }
        return entry.thenApply(e -> {
            if (!cacheable[0]) {
                l1.asMap().remove(key, entry);
            }
            return e.value();
        });
    }

    /**
     * Drops {@code key} from this node's L1 (each node does this for itself) unless its value is
     * loaded and still passes {@code current}: a change announced after a reader already loaded
     * what it made (a page read between the index refresh and the announcement) leaves that copy
     * in place. A load in flight is dropped (it may have begun before the change).
     */
    public void evictLocalUnless(String key, Predicate<Optional<V>> current) {
        CompletableFuture<Entry<V>> held = l1.getIfPresent(key);
        if (held == null || held.isDone() && !held.isCompletedExceptionally() && current.test(held.join().value())) {
            return;
        }
        if (l1.asMap().remove(key, held)) {
            l1Evictions.increment();
        }
    }

    /** Drops every entry of this region from this node's L1 (loads in flight are dropped too). */
    public void evictAllLocal() {
        long size = l1.synchronous().estimatedSize();
        l1.synchronous().invalidateAll();
        l1Evictions.increment(size);
    }

    /**
     * {@link #get(String, Function, Predicate)} for a request thread: waits for the value and
     * rethrows what the origin threw as itself (a 404 or a database outage keeps its type, so
     * the error advice answers it as usual).
     */
    public Optional<V> await(String key, Function<String, Optional<V>> origin, Predicate<Optional<V>> current) {
        try {
            return get(key, origin, current).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw e;
        }
    }

    /** Drops {@code key} from L2 (done once per change, by the shared invalidator). */
    public CompletableFuture<Long> evictShared(String key) {
        return evictShared(java.util.List.of(key));
    }

    /**
     * Drops these keys from L2, one command per shard that owns any of them; completes with how
     * many existed, or -1 when a shard could not be asked (see {@link ShardedRedis#delete(java.util.Collection)}).
     */
    public CompletableFuture<Long> evictShared(java.util.Collection<String> keys) {
        return l2.delete(keys.stream().map(k -> prefix + k).toList()).thenApply(n -> {
            if (n > 0) {
                l2Evictions.increment(n);
            }
            return n;
        });
    }

    /** The Redis key under which {@code key} lives in L2. */
    public String redisKey(String key) {
        return prefix + key;
    }

    public CacheRegion region() {
        return region;
    }

    /** A value this build cannot read (corrupt, or another shape under the same format) is a miss. */
    private Entry<V> decodeOrNull(byte[] bytes) {
        try {
            return decode(bytes);
        } catch (RuntimeException e) {
            staleL2.increment();
            return null;
        }
    }

    private Entry<V> decode(byte[] bytes) {
        return bytes.length == 0 ? new Entry<>(Optional.empty(), 0) : new Entry<>(Optional.of(codec.decode(bytes)), bytes.length);
    }

    private Duration jittered(Duration ttl) {
        return JitteredExpiry.jitter(ttl, region.jitter());
    }

    /** L1 lifetimes: the region's TTL (or its negative TTL for absent answers), shortened by jitter. */
    private record JitteredExpiry<V>(CacheRegion region) implements Expiry<String, Entry<V>> {

        static Duration jitter(Duration ttl, double jitter) {
            long nanos = ttl.toNanos();
            return Duration.ofNanos(nanos - (long) (nanos * jitter * ThreadLocalRandom.current().nextDouble()));
        }

        @Override
        public long expireAfterCreate(String key, Entry<V> entry, long currentTime) {
            return jitter(entry.value().isPresent() ? region.l1Ttl() : region.negativeTtl(), region.jitter()).toNanos();
        }

        @Override
        public long expireAfterUpdate(String key, Entry<V> entry, long currentTime, long currentDuration) {
            return expireAfterCreate(key, entry, currentTime);
        }

        @Override
        public long expireAfterRead(String key, Entry<V> entry, long currentTime, long currentDuration) {
            return currentDuration;
        }
    }
}
