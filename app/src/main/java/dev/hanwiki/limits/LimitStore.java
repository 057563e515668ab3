package dev.hanwiki.limits;

import dev.hanwiki.platform.RedisLogin;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The buckets in the auth Redis: sole owner of this package's Lettuce client and its one
 * connection (the token blacklist keeps its own). A bucket is one hash updated atomically by
 * {@code limits/token-bucket.lua} on Redis' clock, so both nodes see one state and no two
 * concurrent attempts can take the same token. When Redis cannot answer within the timeout,
 * or is known to be unreachable, every call throws {@link LimitsUnavailableException}
 * (fail closed); commands are rejected rather than queued while disconnected.
 */
@Component
class LimitStore implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(LimitStore.class);
    static final int TAKE = 1;
    static final int PEEK = 0;
    static final int GIVE_BACK = -1;

    private final RedisClient client;
    private final LimitSettings.Store settings;
    private final String script;
    private volatile StatefulRedisConnection<String, String> connection;
    private volatile long retryAtNanos = System.nanoTime();
    private volatile boolean running;

    LimitStore(LimitSettings settings) {
        this.settings = settings.store();
        this.script = loadScript();
        Duration timeout = this.settings.timeout();
        RedisURI.Builder uri = RedisURI.builder()
                .withHost(this.settings.host())
                .withPort(this.settings.port())
                .withTimeout(timeout);
        this.client = RedisClient.create(RedisLogin.apply(uri, this.settings.username(), this.settings.password()).build());
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(this.settings.connectTimeout()).build())
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                .build());
    }

    /**
     * @param op {@link #TAKE}, {@link #PEEK} or {@link #GIVE_BACK}
     * @return how long until the bucket has a token; zero if it had one (and, for TAKE, it was taken)
     */
    Duration bucket(String key, LimitSettings.Bucket bucket, int op) {
        try {
            Long waitMillis = commands().eval(script, ScriptOutputType.INTEGER, new String[] {key},
                    Integer.toString(bucket.burst()), Long.toString(bucket.millisPerToken()), Integer.toString(op));
            return Duration.ofMillis(waitMillis == null ? 0 : waitMillis);
        } catch (RedisException e) {
            throw new LimitsUnavailableException(e);
        }
    }

    boolean exists(String key) {
        try {
            return commands().exists(key) > 0;
        } catch (RedisException e) {
            throw new LimitsUnavailableException(e);
        }
    }

    void mark(String key, Duration ttl) {
        try {
            commands().set(key, "1", SetArgs.Builder.px(Math.max(1, ttl.toMillis())));
        } catch (RedisException e) {
            throw new LimitsUnavailableException(e);
        }
    }

    private RedisCommands<String, String> commands() {
        StatefulRedisConnection<String, String> current = connection;
        return current != null ? current.sync() : connect().sync();
    }

    private synchronized StatefulRedisConnection<String, String> connect() {
        if (connection != null) {
            return connection;
        }
        if (System.nanoTime() - retryAtNanos < 0) {
            throw new LimitsUnavailableException(null);
        }
        try {
            connection = client.connect();
            log.info("Connected to the limit store at {}:{}", settings.host(), settings.port());
            return connection;
        } catch (RedisException e) {
            retryAtNanos = System.nanoTime() + settings.retryAfterFailure().toNanos();
            log.warn("Limit store at {}:{} is unreachable ({}); logins and writes fail closed",
                    settings.host(), settings.port(), e.getMessage());
            throw new LimitsUnavailableException(e);
        }
    }

    private static String loadScript() {
        try (InputStream in = LimitStore.class.getResourceAsStream("/limits/token-bucket.lua")) {
            if (in == null) {
                throw new IllegalStateException("limits/token-bucket.lua is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Connects in the background at start-up, so that the first login does not pay for it. */
    @Override
    public void start() {
        running = true;
        Thread.ofVirtual().name("limit-store-connect").start(() -> {
            try {
                commands();
            } catch (RuntimeException e) {
                // Already logged; the first call that needs the store tries again.
            }
        });
    }

    /** Runs after the web server has drained (lower phase). */
    @Override
    public void stop() {
        running = false;
        StatefulRedisConnection<String, String> current = connection;
        if (current != null) {
            current.close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return 0;
    }
}
