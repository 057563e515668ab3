package dev.hanwiki.cache;

import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import dev.hanwiki.platform.RedisClients;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * L2: the Redis cache shards behind a {@link HashRing}. A key always maps to the same shard
 * (by shard name); a shard that is down stays on the ring and its keys simply miss until it is
 * back, so recovery needs no re-hashing and no warm-up of the other shards. Every shard is
 * dialled when the bean starts (so the first requests do not all miss), not when it is made;
 * one that is never started dials at its first command.
 */
public final class ShardedRedis extends Background implements AutoCloseable {

    private final ClientResources resources;
    private final RedisClient client;
    private final List<RedisShard> shards;
    private final HashRing<RedisShard> ring;

    public ShardedRedis(CacheSettings settings, MeterRegistry meters) {
        super("cache-shards", Phases.SERVING, Duration.ofSeconds(1));
        this.resources = RedisClients.resources(2); // a lost shard is re-dialled every half second
        this.client = RedisClient.create(resources);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                // Fail fast while disconnected instead of queueing commands for a dead shard.
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(Duration.ofMillis(250)).build())
                .timeoutOptions(TimeoutOptions.builder().timeoutCommands().timeoutSource(new ScriptsGetLonger(settings.timeout())).build())
                .build());
        this.shards = settings.shards().stream().map(s -> new RedisShard(s, client, settings, meters)).toList();
        this.ring = new HashRing<>(shards, RedisShard::name, settings.vnodes());
    }

    /** Dials every shard; the connections come up on Lettuce's own threads, nothing waits here. */
    @Override
    protected void onStart() {
        shards.forEach(RedisShard::dial);
    }

    /**
     * Budget of a Lua script (EVAL): scripts are background writes no request waits for (the
     * autocomplete keys), several commands each, so they get longer than a cache read.
     */
    public static final Duration SCRIPT_BUDGET = Duration.ofMillis(500);

    /** Lettuce's own command timeout: the cache's budget, or {@link #SCRIPT_BUDGET} for scripts. */
    private static final class ScriptsGetLonger extends TimeoutOptions.TimeoutSource {
        private final long readMillis;

        ScriptsGetLonger(Duration read) {
            this.readMillis = read.toMillis();
        }

        @Override
        public long getTimeout(RedisCommand<?, ?, ?> command) {
            return command.getType() == CommandType.EVAL || command.getType() == CommandType.EVALSHA
                    ? SCRIPT_BUDGET.toMillis() : readMillis;
        }

        @Override
        public TimeUnit getTimeUnit() {
            return TimeUnit.MILLISECONDS;
        }
    }

    /** The value under {@code key}, or null on a miss (including a shard that is down or slow). */
    public CompletableFuture<byte[]> get(String key) {
        return shardFor(key).get(key);
    }

    /** Stores {@code value}; completes with false when the shard could not take it. */
    public CompletableFuture<Boolean> set(String key, byte[] value, Duration ttl) {
        return shardFor(key).set(key, value, ttl);
    }

    public CompletableFuture<Long> delete(String key) {
        return shardFor(key).delete(key);
    }

    /**
     * Deletes keys on whichever shards own them (one DEL per shard); completes with how many
     * existed, or with -1 when a shard could not be asked (down, breaker open, timed out): the
     * keys it owns may still be there.
     */
    public CompletableFuture<Long> delete(Collection<String> keys) {
        Map<RedisShard, List<String>> byShard = new LinkedHashMap<>();
        for (String key : keys) {
            byShard.computeIfAbsent(shardFor(key), s -> new ArrayList<>()).add(key);
        }
        CompletableFuture<Long> total = CompletableFuture.completedFuture(0L);
        for (var e : byShard.entrySet()) {
            String[] owned = e.getValue().toArray(String[]::new);
            CompletableFuture<Long> deleted = e.getKey().call(c -> c.del(owned), -1L);
            total = total.thenCombine(deleted, (a, b) -> a < 0 || b < 0 ? -1L : a + b);
        }
        return total;
    }

    /**
     * Runs {@code command} (sorted sets, hashes, scripts...) on the shard that owns {@code key},
     * with the same timeout and breaker as every other call; completes with {@code fallback}
     * when the shard is down, slow or skipped. Pass a fallback the command can never return
     * (e.g. null for a list) to tell "unavailable" from an empty answer.
     */
    public <T> CompletableFuture<T> onShardFor(String key,
            Function<RedisAsyncCommands<String, byte[]>, RedisFuture<T>> command, T fallback) {
        return shardFor(key).call(command, fallback);
    }

    /** Like {@link #onShardFor(String, Function, Object)} with its own time budget (see {@link #SCRIPT_BUDGET}). */
    public <T> CompletableFuture<T> onShardFor(String key,
            Function<RedisAsyncCommands<String, byte[]>, RedisFuture<T>> command, T fallback, Duration budget) {
        return shardFor(key).call(command, fallback, budget);
    }

    /** Runs {@code command} on the shard called {@code shardName}, guarded like {@link #onShardFor}. */
    public <T> CompletableFuture<T> onShard(String shardName,
            Function<RedisAsyncCommands<String, byte[]>, RedisFuture<T>> command, T fallback) {
        for (RedisShard shard : shards) {
            if (shard.name().equals(shardName)) {
                return shard.call(command, fallback);
            }
        }
        throw new IllegalArgumentException("no shard named " + shardName);
    }

    /**
     * Like {@link #onShard(String, Function, Object)} with its own time budget, for background
     * writes no request waits for (the breaker still counts their failures).
     */
    public <T> CompletableFuture<T> onShard(String shardName,
            Function<RedisAsyncCommands<String, byte[]>, RedisFuture<T>> command, T fallback, Duration budget) {
        for (RedisShard shard : shards) {
            if (shard.name().equals(shardName)) {
                return shard.call(command, fallback, budget);
            }
        }
        throw new IllegalArgumentException("no shard named " + shardName);
    }

    /** The shards' names, in configuration order. */
    public List<String> shardNames() {
        return shards.stream().map(RedisShard::name).toList();
    }

    /** The name of the shard that owns {@code key} (for metrics, tests and operators). */
    public String shardNameFor(String key) {
        return shardFor(key).name();
    }

    RedisShard shardFor(String key) {
        return ring.nodeFor(key);
    }

    List<RedisShard> shards() {
        return shards;
    }

    @Override
    public void close() {
        shards.forEach(RedisShard::close);
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
