package dev.hanwiki.platform;

import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Redis connection that fails closed, shared by the token blacklist and the limit store
 * (both in the auth Redis, each with its own client). It never guesses: when Redis cannot answer
 * within the timeout, or is known to be unreachable, {@link #commands()} (or the command) throws
 * a {@link RedisException} the store turns into its own "unavailable" answer. While
 * disconnected, commands are rejected at once rather than queued, so an outage costs callers no
 * waiting; Lettuce reconnects in the background (every half second: {@link RedisClients}), and a
 * failed first connection is retried after {@code retryAfterFailure}. It connects on its thread at start-up, so that the first call does
 * not pay for it, and closes after the web server has drained ({@link Phases#SERVING}).
 */
public abstract class RedisStore extends Background {

    /** Where and how to connect; the password is never logged. */
    public record Target(String host, int port, String username, String password, Duration timeout,
            Duration connectTimeout, Duration retryAfterFailure) {

        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final String what;
    private final String whenDown;
    private final Target target;
    private final ClientResources resources;
    private final RedisClient client;
    private volatile StatefulRedisConnection<String, String> connection;
    private volatile long retryAtNanos = System.nanoTime();

    /**
     * @param what     the store's name in logs and the thread's ("token blacklist")
     * @param whenDown what callers get meanwhile, for the log ("authenticated calls fail closed")
     */
    protected RedisStore(String what, String whenDown, Target target) {
        super(what.replace(' ', '-') + "-connect", Phases.SERVING, Duration.ofSeconds(5));
        this.what = what;
        this.whenDown = whenDown;
        this.target = target;
        RedisURI.Builder uri = RedisURI.builder()
                .withHost(target.host())
                .withPort(target.port())
                .withTimeout(target.timeout());
        this.resources = RedisClients.resources(1); // re-dials every half second, not backing off to 30 s
        this.client = RedisClient.create(resources, RedisLogin.apply(uri, target.username(), target.password()).build());
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(target.connectTimeout()).build())
                .timeoutOptions(TimeoutOptions.enabled(target.timeout()))
                .build());
    }

    /** The connection's commands; throws a {@link RedisException} if there is none and none can be made now. */
    protected final RedisCommands<String, String> commands() {
        StatefulRedisConnection<String, String> current = connection;
        return current != null ? current.sync() : connect().sync();
    }

    private synchronized StatefulRedisConnection<String, String> connect() {
        if (connection != null) {
            return connection;
        }
        if (System.nanoTime() - retryAtNanos < 0) {
            throw new RedisConnectionException("the " + what + " was unreachable moments ago");
        }
        try {
            connection = client.connect();
            log.info("Connected to the {} at {}", what, target);
            return connection;
        } catch (RedisException e) {
            retryAtNanos = System.nanoTime() + target.retryAfterFailure().toNanos();
            log.warn("The {} at {} is unreachable ({}); {}", what, target, e.getMessage(), whenDown);
            throw e;
        }
    }

    @Override
    protected final void onStart() {
        submit(() -> {
            try {
                commands();
            } catch (RedisException e) {
                // Already logged; the first call that needs the store tries again.
            }
        });
    }

    @Override
    protected final void afterStop() {
        StatefulRedisConnection<String, String> current = connection;
        if (current != null) {
            current.close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
