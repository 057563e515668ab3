package dev.hanwiki.cache;

import dev.hanwiki.platform.RedisLogin;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One Redis cache shard: one multiplexed Lettuce connection, a per-command timeout and a
 * circuit breaker. Every call completes normally: a failure, a timeout or an open breaker
 * yields the caller's fallback (a miss), so a dead shard costs at most a few timeouts per
 * breaker window and then nothing until the breaker probes it again. The connection is
 * opened lazily and re-opened on demand (Lettuce reconnects an established one by itself).
 */
final class RedisShard implements AutoCloseable {

    private static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);

    private final String name;
    private final RedisClient client;
    private final RedisURI uri;
    private final Duration timeout;
    private final CircuitBreaker breaker;
    private final Timer ok;
    private final Timer failed;
    private volatile CompletableFuture<StatefulRedisConnection<String, byte[]>> connection;

    RedisShard(CacheSettings.Shard shard, RedisClient client, CacheSettings settings, MeterRegistry meters) {
        this.name = shard.name();
        this.client = client;
        this.uri = RedisLogin.apply(RedisURI.builder().withHost(shard.host()).withPort(shard.port()).withTimeout(settings.timeout()),
                settings.username(), settings.password()).build();
        this.timeout = settings.timeout();
        this.breaker = CircuitBreaker.of(name, CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(20)
                .minimumNumberOfCalls(5)
                .failureRateThreshold(50)
                .slowCallDurationThreshold(settings.timeout())
                .slowCallRateThreshold(80)
                .waitDurationInOpenState(settings.breakerOpen())
                .permittedNumberOfCallsInHalfOpenState(3)
                .build());
        this.ok = Timer.builder("hanwiki.cache.redis").tag("shard", name).tag("outcome", "ok")
                .publishPercentileHistogram().register(meters);
        // Both outcomes must share one meter shape (histogram), or the Prometheus scrape fails.
        this.failed = Timer.builder("hanwiki.cache.redis").tag("shard", name).tag("outcome", "failed")
                .publishPercentileHistogram().register(meters);
        Gauge.builder("hanwiki.cache.breaker.state", breaker, b -> b.getState().getOrder())
                .description("0 closed, 1 open, 2 half-open, ...").tag("shard", name).register(meters);
    }

    /** Dials now, so the first requests do not all miss ({@link ShardedRedis#onStart}). */
    void dial() {
        connection();
    }

    String name() {
        return name;
    }

    CircuitBreaker.State state() {
        return breaker.getState();
    }

    CompletableFuture<byte[]> get(String key) {
        return call(c -> c.get(key), null);
    }

    CompletableFuture<Boolean> set(String key, byte[] value, Duration ttl) {
        return call(c -> c.psetex(key, Math.max(1, ttl.toMillis()), value), "FAILED").thenApply("OK"::equals);
    }

    CompletableFuture<Long> delete(String... keys) {
        return call(c -> c.del(keys), 0L);
    }

    /** Runs a raw command on this shard (e.g. sorted-set operations), with the same guards. */
    <T> CompletableFuture<T> call(Function<RedisAsyncCommands<String, byte[]>, RedisFuture<T>> command, T fallback) {
        return call(command, fallback, timeout);
    }

    /** Like {@link #call(Function, Object)} with its own budget (background writes that no request waits for). */
    <T> CompletableFuture<T> call(Function<RedisAsyncCommands<String, byte[]>, RedisFuture<T>> command, T fallback,
            Duration budget) {
        if (!breaker.tryAcquirePermission()) {
            return CompletableFuture.completedFuture(fallback);
        }
        CompletableFuture<StatefulRedisConnection<String, byte[]>> conn = connection();
        if (!conn.isDone()) {
            // Still dialling (first use, or after an outage): answer "miss" now rather than
            // spend the command budget on a TCP handshake.
            breaker.releasePermission();
            return CompletableFuture.completedFuture(fallback);
        }
        long start = System.nanoTime();
        return conn
                .thenCompose(c -> command.apply(c.async()).toCompletableFuture())
                .orTimeout(budget.toNanos(), TimeUnit.NANOSECONDS)
                .handle((value, error) -> {
                    long took = System.nanoTime() - start;
                    if (error == null) {
                        // The breaker judges slowness against the read budget; a call with a
                        // longer budget is slow only relative to its own.
                        breaker.onSuccess(took * timeout.toNanos() / Math.max(1, budget.toNanos()), TimeUnit.NANOSECONDS);
                        ok.record(took, TimeUnit.NANOSECONDS);
                        return value;
                    }
                    breaker.onError(took, TimeUnit.NANOSECONDS, error);
                    failed.record(took, TimeUnit.NANOSECONDS);
                    return fallback;
                });
    }

    /**
     * The connection, (re)dialled when the last attempt failed. Callers get here only while
     * the breaker lets calls through, so a dead shard is dialled a few times per breaker
     * window at most; a failed dial surfaces as that call's error and trips the breaker.
     */
    private CompletableFuture<StatefulRedisConnection<String, byte[]>> connection() {
        CompletableFuture<StatefulRedisConnection<String, byte[]>> current = connection;
        if (current == null || current.isCompletedExceptionally()) {
            synchronized (this) {
                current = connection;
                if (current == null || current.isCompletedExceptionally()) {
                    CompletableFuture<StatefulRedisConnection<String, byte[]>> dialling =
                            client.connectAsync(CODEC, uri).toCompletableFuture();
                    connection = dialling;
                    // A previous failure is reported once, then the new dial is in progress.
                    return current == null ? dialling : current;
                }
            }
        }
        return current;
    }

    @Override
    public void close() {
        CompletableFuture<StatefulRedisConnection<String, byte[]>> current = connection;
        if (current != null && current.isDone() && !current.isCompletedExceptionally()) {
            current.join().close();
        }
    }
}
