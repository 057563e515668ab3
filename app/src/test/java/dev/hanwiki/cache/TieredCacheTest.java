package dev.hanwiki.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tiered cache with its L2 pointed at ports where nothing listens: every Redis call is
 * refused, which is exactly the "shard down" case, so these run without any process.
 */
class TieredCacheTest {

    record Page(long id, String title) {
    }

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final ExecutorService loads = Executors.newVirtualThreadPerTaskExecutor();
    private final ShardedRedis deadShards = new ShardedRedis(new CacheSettings(
            List.of(new CacheSettings.Shard("shard-1", "127.0.0.1", 1), new CacheSettings.Shard("shard-2", "127.0.0.1", 2)),
            64, Duration.ofMillis(30), Duration.ofSeconds(2)), meters);

    @AfterEach
    void close() {
        deadShards.close();
        loads.close();
    }

    private TieredCache<Page> cache(Duration l1Ttl, Duration negativeTtl) {
        return new TieredCache<>(new CacheRegion("post", l1Ttl, Duration.ofSeconds(30), negativeTtl, 1 << 20, 0.1),
                deadShards, ValueCodec.json(JsonMapper.builder().build(), Page.class), loads, meters);
    }

    @Test
    void concurrentMissesForOneKeyLoadOnceFromTheOrigin() throws Exception {
        TieredCache<Page> cache = cache(Duration.ofSeconds(10), Duration.ofSeconds(1));
        AtomicInteger originCalls = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<Optional<Page>>> answers = new ArrayList<>();
        try (ExecutorService callers = Executors.newFixedThreadPool(32)) {
            List<java.util.concurrent.Future<CompletableFuture<Optional<Page>>>> submitted = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                submitted.add(callers.submit(() -> {
                    start.await();
                    return cache.get("42", id -> {
                        originCalls.incrementAndGet();
                        sleep(100);
                        return Optional.of(new Page(42, "서울"));
                    });
                }));
            }
            start.countDown();
            for (var f : submitted) {
                answers.add(f.get());
            }
        }
        for (var answer : answers) {
            assertThat(answer.get()).contains(new Page(42, "서울"));
        }
        assertThat(originCalls).hasValue(1);
        assertThat(meters.counter("hanwiki.cache.gets", "region", "post", "tier", "origin").count()).isEqualTo(1.0);
        assertThat(meters.counter("hanwiki.cache.gets", "region", "post", "tier", "l1").count()).isEqualTo(199.0);
    }

    @Test
    void shardDownIsACacheMissNotAnError() throws Exception {
        TieredCache<Page> cache = cache(Duration.ofSeconds(10), Duration.ofSeconds(1));
        for (int i = 0; i < 50; i++) {
            long id = i;
            assertThat(cache.get("p" + i, k -> Optional.of(new Page(id, "t"))).get()).contains(new Page(id, "t"));
        }
        assertThat(meters.counter("hanwiki.cache.gets", "region", "post", "tier", "origin").count()).isEqualTo(50.0);
        // Refused calls trip the breakers, which then answer "miss" without dialling. A shard's
        // refusal is recorded only when a call finds its last dial failed (a call that finds the
        // dial still in progress misses without a record), so on a loaded machine the 50 reads
        // above may record fewer than the breaker's minimum of 5 (a CI run failed so): keep
        // reading, each read still a miss served by the origin, until both are open (at most 5 s).
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
        for (int i = 50; System.nanoTime() < deadline && !deadShards.shards().stream()
                .allMatch(s -> s.state() == io.github.resilience4j.circuitbreaker.CircuitBreaker.State.OPEN); i++) {
            long id = i;
            assertThat(cache.get("p" + i, k -> Optional.of(new Page(id, "t"))).get()).contains(new Page(id, "t"));
            sleep(20);
        }
        assertThat(deadShards.shards()).allSatisfy(s ->
                assertThat(s.state()).isEqualTo(io.github.resilience4j.circuitbreaker.CircuitBreaker.State.OPEN));
    }

    @Test
    void absentAnswersAreCachedOnlyBriefly() throws Exception {
        TieredCache<Page> cache = cache(Duration.ofSeconds(10), Duration.ofMillis(150));
        AtomicInteger originCalls = new AtomicInteger();
        for (int i = 0; i < 20; i++) {
            assertThat(cache.get("404", k -> {
                originCalls.incrementAndGet();
                return Optional.empty();
            }).get()).isEmpty();
        }
        assertThat(originCalls).hasValue(1);
        sleep(400);
        assertThat(cache.get("404", k -> {
            originCalls.incrementAndGet();
            return Optional.of(new Page(404, "now it exists"));
        }).get()).contains(new Page(404, "now it exists"));
        assertThat(originCalls).hasValue(2);
    }

    @Test
    void evictLocalUnlessDropsOnlyACopyThatFailsTheCheck() throws Exception {
        TieredCache<Page> cache = cache(Duration.ofSeconds(10), Duration.ofSeconds(1));
        assertThat(cache.get("7", k -> Optional.of(new Page(7, "old"))).get()).contains(new Page(7, "old"));
        // A change the held copy already shows (read after the refresh, before the announcement).
        cache.evictLocalUnless("7", p -> p.map(page -> page.id() >= 7).orElse(false));
        assertThat(cache.get("7", k -> Optional.of(new Page(7, "new"))).get()).contains(new Page(7, "old"));
        assertThat(meters.counter("hanwiki.cache.evictions", "region", "post", "tier", "l1").count()).isEqualTo(0.0);
        cache.evictLocalUnless("7", p -> p.map(page -> page.id() >= 8).orElse(false));
        assertThat(cache.get("7", k -> Optional.of(new Page(7, "new"))).get()).contains(new Page(7, "new"));
        cache.evictLocalUnless("absent", p -> false);
        assertThat(meters.counter("hanwiki.cache.evictions", "region", "post", "tier", "l1").count()).isEqualTo(1.0);
    }

    @Test
    void anOriginAnswerOlderThanWhatTheCallerKnowsIsServedButNotCached() throws Exception {
        TieredCache<Page> cache = cache(Duration.ofSeconds(10), Duration.ofSeconds(1));
        AtomicInteger originCalls = new AtomicInteger();
        java.util.function.Predicate<Optional<Page>> atLeastVersion2 = p -> p.map(page -> page.id() >= 2).orElse(false);
        assertThat(cache.get("k", k -> {
            originCalls.incrementAndGet();
            return Optional.of(new Page(1, "from a lagging replica"));
        }, atLeastVersion2).get()).contains(new Page(1, "from a lagging replica"));
        assertThat(cache.get("k", k -> {
            originCalls.incrementAndGet();
            return Optional.of(new Page(2, "caught up"));
        }, atLeastVersion2).get()).contains(new Page(2, "caught up"));
        assertThat(cache.get("k", k -> {
            originCalls.incrementAndGet();
            return Optional.of(new Page(3, "not asked"));
        }, atLeastVersion2).get()).contains(new Page(2, "caught up"));
        assertThat(originCalls).hasValue(2);
        assertThat(meters.counter("hanwiki.cache.uncached", "region", "post").count()).isEqualTo(1.0);
    }

    @Test
    void anL1ValueOlderThanWhatTheCallerKnowsNowIsAMiss() throws Exception {
        TieredCache<Page> cache = cache(Duration.ofSeconds(10), Duration.ofSeconds(1));
        long[] known = {1};
        java.util.function.Predicate<Optional<Page>> current = p -> p.map(page -> page.id() >= known[0]).orElse(false);
        assertThat(cache.get("k", k -> Optional.of(new Page(1, "first")), current).get()).contains(new Page(1, "first"));
        assertThat(cache.get("k", k -> Optional.of(new Page(9, "not asked")), current).get()).contains(new Page(1, "first"));
        known[0] = 2; // the caller learnt of a change the L1 value predates; nobody evicted it
        assertThat(cache.get("k", k -> Optional.of(new Page(2, "second")), current).get()).contains(new Page(2, "second"));
        assertThat(cache.get("k", k -> Optional.of(new Page(9, "not asked")), current).get()).contains(new Page(2, "second"));
        assertThat(meters.counter("hanwiki.cache.l1.stale", "region", "post").count()).isEqualTo(1.0);
    }

    @Test
    void evictAllLocalDropsEveryEntryAndCountsThem() throws Exception {
        TieredCache<Page> cache = cache(Duration.ofSeconds(10), Duration.ofSeconds(1));
        for (int i = 0; i < 5; i++) {
            long id = i;
            cache.get("p" + i, k -> Optional.of(new Page(id, "old"))).get();
        }
        cache.evictLocalUnless("p0", p -> false);
        cache.evictLocalUnless("absent", p -> false);
        cache.evictAllLocal();
        assertThat(cache.get("p3", k -> Optional.of(new Page(3, "new"))).get()).contains(new Page(3, "new"));
        assertThat(meters.counter("hanwiki.cache.evictions", "region", "post", "tier", "l1").count()).isEqualTo(5.0);
    }

    @Test
    void keysCarryTheFormatVersionAndRegion() {
        assertThat(cache(Duration.ofSeconds(1), Duration.ofSeconds(1)).redisKey("42")).isEqualTo("hw:v4:post:42");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
