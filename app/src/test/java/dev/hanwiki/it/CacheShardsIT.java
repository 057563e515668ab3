package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hanwiki.cache.CacheRegion;
import dev.hanwiki.cache.CacheSettings;
import dev.hanwiki.cache.ShardedRedis;
import dev.hanwiki.cache.TieredCache;
import dev.hanwiki.cache.ValueCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The L2 tier against the three real Redis cache shards of the running stack. */
class CacheShardsIT {

    record Page(long id, String title) {
    }

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final ExecutorService loads = Executors.newVirtualThreadPerTaskExecutor();
    private final ShardedRedis shards = new ShardedRedis(settings(), meters);

    private static CacheSettings settings() {
        List<CacheSettings.Shard> list = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            list.add(new CacheSettings.Shard("shard-" + i, Stack.addr("REDIS_SHARD" + i), Stack.port("REDIS_SHARD" + i + "_PORT")));
        }
        // A wider budget than production's 30 ms: these tests are about routing and misses, and
        // must not flake when other builds load the machine.
        return new CacheSettings(list, CacheSettings.DEFAULT_VNODES, Duration.ofMillis(200), Duration.ofSeconds(1))
                .withCredentials(Stack.REDIS_USER, Stack.redisPassword());
    }

    @BeforeEach
    void dial() {
        shards.start();
    }

    @AfterEach
    void close() {
        shards.stop();
        shards.close();
        loads.close();
    }

    private TieredCache<Page> node() {
        return new TieredCache<>(new CacheRegion("it-page", Duration.ofSeconds(30), Duration.ofSeconds(60),
                Duration.ofSeconds(2), 1 << 20, 0.1), shards, ValueCodec.json(JsonMapper.builder().build(), Page.class),
                loads, meters);
    }

    @Test
    void aValueLoadedOnOneNodeIsAnL2HitOnTheOtherAndLivesOnTheRingsShard() throws Exception {
        String key = Search.uniqueWord();
        TieredCache<Page> node1 = node();
        TieredCache<Page> node2 = node();
        Eventually.within(Duration.ofSeconds(5), "shards connected",
                () -> shards.set(node1.redisKey("warm"), new byte[] {1}, Duration.ofSeconds(5)).join());
        AtomicInteger origin = new AtomicInteger();

        assertThat(node1.get(key, k -> {
            origin.incrementAndGet();
            return Optional.of(new Page(1, "한강"));
        }).get()).contains(new Page(1, "한강"));
        // Node 2 has its own L1, so this read goes to Redis and must not reach the origin.
        Thread.sleep(50); // the L2 write is asynchronous
        assertThat(node2.get(key, k -> {
            origin.incrementAndGet();
            return Optional.of(new Page(1, "wrong"));
        }).get()).contains(new Page(1, "한강"));
        assertThat(origin).hasValue(1);

        String owner = shards.shardNameFor(node1.redisKey(key));
        for (int i = 1; i <= 3; i++) {
            long exists = CacheShards.redis(i).exists(node1.redisKey(key));
            assertThat(exists).as("key on shard-" + i).isEqualTo(("shard-" + i).equals(owner) ? 1 : 0);
        }
    }

    @Test
    void stoppingAShardUnderLoadTurnsOnlyItsKeysIntoMissesWithoutErrors() throws Exception {
        String victim = "shard-2";
        Map<String, byte[]> values = new ConcurrentHashMap<>();
        Eventually.within(Duration.ofSeconds(5), "all shards connected",
                () -> shards.set("hw:it:warm-1", new byte[] {1}, Duration.ofSeconds(5)).join()
                        && shards.set("hw:it:warm-2", new byte[] {1}, Duration.ofSeconds(5)).join()
                        && shards.set("hw:it:warm-3", new byte[] {1}, Duration.ofSeconds(5)).join());
        for (int i = 0; i < 300; i++) {
            String key = "hw:it:" + Search.uniqueWord();
            byte[] value = ("v" + i).getBytes(StandardCharsets.UTF_8);
            values.put(key, value);
            Eventually.within(Duration.ofSeconds(5), "set " + key, () -> shards.set(key, value, Duration.ofMinutes(5)).join());
        }
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger errors = new AtomicInteger();
        AtomicLong slowest = new AtomicLong();
        AtomicInteger calls = new AtomicInteger();
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            readers.add(Thread.ofPlatform().start(() -> {
                while (running.get()) {
                    for (String key : values.keySet()) {
                        long start = System.nanoTime();
                        try {
                            shards.get(key).get();
                        } catch (Exception e) {
                            errors.incrementAndGet();
                        }
                        slowest.accumulateAndGet(System.nanoTime() - start, Math::max);
                        calls.incrementAndGet();
                    }
                }
            }));
        }
        try {
            Thread.sleep(500);
            Stack.infra("ctl.sh", "stop", "redis-shard2");
            slowest.set(0);
            Thread.sleep(2000);
        } finally {
            running.set(false);
            for (Thread r : readers) {
                r.join(5000);
            }
        }
        try {
            assertThat(errors).hasValue(0);
            assertThat(calls.get()).isGreaterThan(1000);
            assertThat(Duration.ofNanos(slowest.get())).as("slowest read while the shard was down")
                    .isLessThan(Duration.ofMillis(600));
            for (var e : values.entrySet()) {
                byte[] got = shards.get(e.getKey()).get();
                if (victim.equals(shards.shardNameFor(e.getKey()))) {
                    assertThat(got).as("a key of the stopped shard is a miss").isNull();
                } else {
                    assertThat(got).as("a key of a live shard still hits").isEqualTo(e.getValue());
                }
            }
        } finally {
            Stack.infra("ctl.sh", "start", "redis-shard2");
        }
        // Recovery is automatic: once the breaker probes again, the shard takes writes.
        String probe = values.keySet().stream().filter(k -> victim.equals(shards.shardNameFor(k))).findFirst().orElseThrow();
        Eventually.within(Duration.ofSeconds(10), "shard-2 back in service",
                () -> shards.set(probe, values.get(probe), Duration.ofMinutes(1)).join()
                        && java.util.Arrays.equals(shards.get(probe).join(), values.get(probe)));
    }

    @Test
    void a100kKeysSpreadOverTheThreeRedisProcessesWithinTenPercent() {
        Eventually.within(Duration.ofSeconds(5), "all shards connected",
                () -> shards.set("hw:it:warm-1", new byte[] {1}, Duration.ofSeconds(5)).join()
                        && shards.set("hw:it:warm-2", new byte[] {1}, Duration.ofSeconds(5)).join()
                        && shards.set("hw:it:warm-3", new byte[] {1}, Duration.ofSeconds(5)).join());
        String prefix = "hw:it:balance:" + Search.uniqueWord() + ":";
        int keys = 100_000;
        byte[] value = {1};
        for (int from = 0; from < keys; from += 200) {
            List<java.util.concurrent.CompletableFuture<Boolean>> batch = new ArrayList<>();
            for (int i = from; i < Math.min(keys, from + 200); i++) {
                batch.add(shards.set(prefix + i, value, Duration.ofMinutes(2)));
            }
            for (int i = 0; i < batch.size(); i++) {
                if (!batch.get(i).join()) {
                    // A set the shard did not take in time (a loaded machine): retry it once, synchronously.
                    String key = prefix + (from + i);
                    Eventually.within(Duration.ofSeconds(5), "set " + key, () -> shards.set(key, value, Duration.ofMinutes(2)).join());
                }
            }
        }
        Map<String, Long> held = new java.util.TreeMap<>();
        for (int i = 1; i <= 3; i++) {
            var commands = CacheShards.redis(i);
            long count = 0;
            var cursor = commands.scan(io.lettuce.core.ScanArgs.Builder.matches(prefix + "*").limit(5000));
            while (true) {
                count += cursor.getKeys().size();
                if (cursor.isFinished()) {
                    break;
                }
                cursor = commands.scan(cursor, io.lettuce.core.ScanArgs.Builder.matches(prefix + "*").limit(5000));
            }
            held.put("shard-" + i, count);
        }
        long max = held.values().stream().max(Long::compare).orElseThrow();
        long min = held.values().stream().min(Long::compare).orElseThrow();
        System.out.printf("keys held per Redis process: %s (max/min %.3f)%n", held, (double) max / min);
        assertThat(held.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(keys);
        assertThat((double) max / min).as("busiest / least busy shard, " + held).isLessThanOrEqualTo(1.10);
    }

    /**
     * Adding a fourth Redis process (a scratch redis-server this test starts on a free port and
     * stops) moves only the keys the ring gives to it, about a quarter and at most ~30%: keys
     * written through the three-shard ring are read back through a four-shard ring; every key it
     * still routes to shards 1-3 must hit, every key it routes to the new shard must miss.
     */
    @Test
    void aFourthRedisProcessTakesAboutAQuarterOfTheKeysAndMovesNoOthers() throws Exception {
        Eventually.within(Duration.ofSeconds(5), "all shards connected",
                () -> shards.set("hw:it:warm-1", new byte[] {1}, Duration.ofSeconds(5)).join()
                        && shards.set("hw:it:warm-2", new byte[] {1}, Duration.ofSeconds(5)).join()
                        && shards.set("hw:it:warm-3", new byte[] {1}, Duration.ofSeconds(5)).join());
        String prefix = "hw:it:move:" + Search.uniqueWord() + ":";
        int keys = 50_000;
        byte[] value = {7};
        for (int from = 0; from < keys; from += 500) {
            List<java.util.concurrent.CompletableFuture<Boolean>> batch = new ArrayList<>();
            for (int i = from; i < Math.min(keys, from + 500); i++) {
                batch.add(shards.set(prefix + i, value, Duration.ofMinutes(2)));
            }
            for (int i = 0; i < batch.size(); i++) {
                if (!batch.get(i).join()) {
                    String key = prefix + (from + i);
                    Eventually.within(Duration.ofSeconds(5), "set " + key, () -> shards.set(key, value, Duration.ofMinutes(2)).join());
                }
            }
        }
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        // The same ACL user as the stack's shards, so one set of credentials opens all four.
        Process scratch = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--user", Stack.REDIS_USER, "on", ">" + Stack.redisPassword(), "~*", "&*", "+@all").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        List<CacheSettings.Shard> four = new ArrayList<>(settings().shards());
        four.add(new CacheSettings.Shard("shard-4", "127.0.0.1", port));
        CacheSettings base = settings();
        try (ShardedRedis grown = new ShardedRedis(new CacheSettings(four, base.vnodes(), base.timeout(),
                base.breakerOpen(), base.username(), base.password()), new SimpleMeterRegistry())) {
            grown.start();
            Eventually.within(Duration.ofSeconds(10), "scratch shard up", () -> {
                String probe = java.util.stream.IntStream.range(0, 1000).mapToObj(i -> "hw:it:probe:" + i)
                        .filter(k -> "shard-4".equals(grown.shardNameFor(k))).findFirst().orElseThrow();
                return grown.set(probe, value, Duration.ofSeconds(5)).join();
            });
            int moved = 0;
            for (int i = 0; i < keys; i++) {
                String key = prefix + i;
                boolean toNewShard = "shard-4".equals(grown.shardNameFor(key));
                if (toNewShard) {
                    moved++;
                    assertThat(shards.shardNameFor(key)).as("the three-shard ring had it elsewhere").isNotEqualTo("shard-4");
                    assertThat(grown.get(key).get()).as("a moved key misses on the new shard: " + key).isNull();
                } else {
                    assertThat(grown.shardNameFor(key)).as("a key that stays keeps its shard").isEqualTo(shards.shardNameFor(key));
                    byte[] got = grown.get(key).get();
                    if (got == null) { // a read the shard did not answer in time: once more, synchronously
                        got = grown.get(key).get();
                    }
                    assertThat(got).as("a key that stays still hits: " + key).isEqualTo(value);
                }
            }
            double share = (double) moved / keys;
            System.out.printf("a fourth shard took %d of %d keys (%.1f%%)%n", moved, keys, share * 100);
            assertThat(share).as("share of keys moved to the fourth shard").isBetween(0.15, 0.30);
        } finally {
            scratch.destroy();
            scratch.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }
}
