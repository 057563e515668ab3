package dev.hanwiki.platform;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;

/**
 * Lettuce's client resources, made one way for every Redis client of the service (the cache
 * shards, the token blacklist, the limit store). A lost server is re-dialled every half second:
 * Lettuce's default backs off exponentially to 30 s, so after an outage of a minute a node kept
 * answering from its dead connection for up to 30 s more, though Redis was back (chaos
 * host-b-isolate, HOLD 90: 30 signed-in writes refused {@code AUTH_UNAVAILABLE} in the 3.4 s
 * after the heal).
 */
public final class RedisClients {

    /** How often a lost connection is dialled again. */
    public static final Duration RECONNECT_EVERY = Duration.ofMillis(500);

    private RedisClients() {
    }

    /** Resources with {@code threads} I/O and computation threads; the caller shuts them down after its client. */
    public static ClientResources resources(int threads) {
        return DefaultClientResources.builder().ioThreadPoolSize(threads).computationThreadPoolSize(threads)
                .reconnectDelay(Delay.constant(RECONNECT_EVERY))
                .build();
    }
}
