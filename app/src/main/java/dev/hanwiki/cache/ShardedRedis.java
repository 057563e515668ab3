package dev.hanwiki.cache;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * L2: the Redis cache shards behind a {@link HashRing}. A key always maps to the same shard
 * (by shard name); a shard that is down stays on the ring and its keys simply miss until it is
 * back, so recovery needs no re-hashing and no warm-up of the other shards.
 */
public final class ShardedRedis implements AutoCloseable {

    private final ClientResources resources;
    private final RedisClient client;
    private final List<RedisShard> shards;
    private final HashRing<RedisShard> ring;

    public ShardedRedis(CacheSettings settings, MeterRegistry meters) {
        this.resources = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(2)
                // Re-dial a lost shard every half second (the default backs off to 30 s).
                .reconnectDelay(Delay.constant(Duration.ofMillis(500)))
                .build();
        this.client = RedisClient.create(resources);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                // Fail fast while disconnected instead of queueing commands for a dead shard.
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(Duration.ofMillis(250)).build())
                .timeoutOptions(TimeoutOptions.enabled(settings.timeout()))
                .build());
        this.shards = settings.shards().stream().map(s -> new RedisShard(s, client, settings, meters)).toList();
        this.ring = new HashRing<>(shards, RedisShard::name, settings.vnodes());
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

    /** Deletes keys on whichever shards own them (one DEL per shard); completes with how many existed. */
    public CompletableFuture<Long> delete(java.util.Collection<String> keys) {
        java.util.Map<RedisShard, List<String>> byShard = new java.util.LinkedHashMap<>();
        for (String key : keys) {
            byShard.computeIfAbsent(shardFor(key), s -> new java.util.ArrayList<>()).add(key);
        }
        CompletableFuture<Long> total = CompletableFuture.completedFuture(0L);
        for (var e : byShard.entrySet()) {
            CompletableFuture<Long> deleted = e.getKey().delete(e.getValue().toArray(String[]::new));
            total = total.thenCombine(deleted, Long::sum);
        }
        return total;
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
        resources.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS);
    }
}
