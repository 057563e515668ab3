package dev.hanwiki.autocomplete;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hanwiki.it.Stack;
import dev.hanwiki.cache.CacheSettings;
import dev.hanwiki.cache.ShardedRedis;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The popular queries' own prefix keys against the three real cache shards (ADR 0038), in a
 * version of their own that no node reads (removed afterwards): queries never displace titles
 * from a title key, and the sweep never leaves a re-filed query without its keys.
 */
class QueryKeysIT {

    private static final long VERSION = 9_000_000_000L + ThreadLocalRandom.current().nextInt(1_000_000);
    private static ShardedRedis redis;
    private static PrefixKeys keys;
    private static TitleStore titles;
    private static QueryStore queries;

    @BeforeAll
    static void connect() throws IOException, InterruptedException {
        List<CacheSettings.Shard> shards = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            shards.add(new CacheSettings.Shard("shard-" + i, Stack.addr("REDIS_SHARD" + i), Stack.port("REDIS_SHARD" + i + "_PORT")));
        }
        // A generous budget: this is about what ends up in the keys, not about latency.
        redis = new ShardedRedis(new CacheSettings(shards, CacheSettings.DEFAULT_VNODES, Duration.ofSeconds(2),
                Duration.ofSeconds(2)).withCredentials(Stack.REDIS_USER, Stack.redisPassword()), new SimpleMeterRegistry());
        redis.start();
        // A shard answers "miss" while its connection is still being dialled: wait until all answer.
        for (String shard : redis.shardNames()) {
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (redis.onShard(shard, c -> c.ping(), null).join() == null) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(shard + " does not answer: is the stack up ('make up')?");
                }
                Thread.sleep(50);
            }
        }
        keys = new PrefixKeys(10);
        titles = new TitleStore(redis, keys, 20);
        queries = new QueryStore(titles, keys, 10);
    }

    @AfterAll
    static void removeTheTestVersion() {
        for (String shard : redis.shardNames()) {
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                ScanCursor from = cursor;
                var page = redis.onShard(shard, c -> c.scan(from, ScanArgs.Builder.matches(TitleStore.ROOT + VERSION + ":*")
                        .limit(1000)), null).join();
                if (!page.getKeys().isEmpty()) {
                    String[] batch = page.getKeys().toArray(String[]::new);
                    redis.onShard(shard, c -> c.unlink(batch), null).join();
                }
                cursor = page;
            } while (!cursor.isFinished());
        }
        redis.close();
    }

    private static List<String> members(String suffix, int limit) {
        return titles.top(VERSION, suffix, limit).join().stream()
                .map(v -> new String(v.getValue(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void popularQueriesNeverPushTitlesOutOfATitleKeyAndLeaveNoHoleWhenTheyExpire() {
        String head = "서" + (char) ('가' + ThreadLocalRandom.current().nextInt(11_000));
        for (long id = 1; id <= 20; id++) {
            assertThat(titles.write(VERSION, new TitleStore.Entry(id, head + " 제목 " + id, 1, id), TitleStore.Mode.UPSERT)
                    .join()).isTrue();
        }
        long now = System.currentTimeMillis();
        // 15 queries far more popular than any of the titles, already expired.
        for (int i = 0; i < 15; i++) {
            assertThat(queries.file(VERSION, head + " 검색 " + i, 1000 + i, now - 1).join()).isTrue();
        }
        assertThat(members("r:" + head, 100)).as("the title key").hasSize(20).noneMatch(QueryStore::isQueryMember);
        assertThat(members("qr:" + head, 100)).as("the query key, trimmed to its own keep").hasSize(10)
                .allMatch(QueryStore::isQueryMember);

        assertThat(queries.sweep(VERSION, now)).isEqualTo(15);
        assertThat(members("r:" + head, 100)).as("the title key after the sweep").hasSize(20);
        assertThat(members("qr:" + head, 100)).as("the query key after the sweep").isEmpty();
    }

    @Test
    void aQueryReFiledWhileTheSweepRemovesItKeepsItsKeys() {
        String query = "서" + (char) ('가' + ThreadLocalRandom.current().nextInt(11_000)) + " 맛집";
        String member = QueryStore.member(query);
        long now = System.currentTimeMillis();
        assertThat(queries.file(VERSION, query, 30, now - 1).join()).isTrue();
        Set<String> suffixes = queries.keysOf(query);
        // The other node files it again (record and keys) after this sweep read the expired
        // record and before it takes the member out of its keys.
        int removed = queries.sweep(VERSION, now, () -> assertThat(queries.file(VERSION, query, 40, now + 60_000).join()).isTrue());
        assertThat(removed).isZero();
        byte[] record = redis.onShardFor(QueryStore.recordKey(VERSION, member),
                c -> c.hget(QueryStore.recordKey(VERSION, member), member), null).join();
        assertThat(QueryStore.parse(record)).isEqualTo(new QueryStore.Entry(query, 40, now + 60_000));
        for (String suffix : suffixes) {
            assertThat(members(suffix, 10)).as(suffix).contains(member);
        }
        // Expired for real, nobody re-files: the next sweep removes it everywhere.
        assertThat(queries.sweep(VERSION, now + 60_000)).isEqualTo(1);
        for (String suffix : suffixes) {
            assertThat(members(suffix, 10)).as(suffix).doesNotContain(member);
        }
    }
}
