package dev.hanwiki.it;

import io.lettuce.core.RedisClient;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The real Redis cache shards, commanded directly by the tests that inspect keys. */
final class CacheShards {

    private CacheShards() {
    }

    /** Direct commands on one real shard: one client and connection per shard for the whole run. */
    static io.lettuce.core.api.sync.RedisCommands<String, String> redis(int shard) {
        return SHARDS.computeIfAbsent(shard, s -> RedisClient
                .create(Stack.redisUri("REDIS_SHARD" + s)).connect().sync());
    }

    private static final Map<Integer, io.lettuce.core.api.sync.RedisCommands<String, String>> SHARDS = new ConcurrentHashMap<>();
}
