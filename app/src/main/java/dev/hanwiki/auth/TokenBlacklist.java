package dev.hanwiki.auth;

import dev.hanwiki.platform.RedisLogin;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.KeyValue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Revoked token ids in the auth Redis: key {@code bl:<jti>}, TTL the token's remaining
 * lifetime, so the set drains by itself; and per account, {@code ra:<userId>}: the time of a
 * logout everywhere, which revokes every token issued until then (TTL a token's lifetime). Sole owner of the Lettuce client and its one
 * connection. It never guesses: when Redis cannot answer within the timeout, or is known to be
 * unreachable, every call throws {@link BlacklistUnavailableException}. While disconnected,
 * commands are rejected at once rather than queued, so an outage costs callers no waiting;
 * Lettuce reconnects in the background, and a failed first connection is retried after
 * {@code retry-after-failure}.
 */
@Component
class TokenBlacklist implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(TokenBlacklist.class);
    private static final String PREFIX = "bl:";
    /** {@code ra:<userId>}: epoch millis before which every token of the account is revoked. */
    private static final String ALL_PREFIX = "ra:";

    private final RedisClient client;
    private final AuthSettings.Blacklist settings;
    private volatile StatefulRedisConnection<String, String> connection;
    private volatile long retryAtNanos = System.nanoTime();
    private volatile boolean running;

    TokenBlacklist(AuthSettings settings) {
        this.settings = settings.blacklist();
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

    boolean isRevoked(String tokenId) {
        try {
            return commands().exists(PREFIX + tokenId) > 0;
        } catch (RedisException e) {
            throw new BlacklistUnavailableException(e);
        }
    }

    /**
     * One round trip for both ways a token is revoked: its own id was logged out, or its
     * account logged out everywhere at or after the second it was issued in.
     */
    boolean isRevoked(String tokenId, long userId, Instant issuedAt) {
        try {
            List<KeyValue<String, String>> values = commands().mget(PREFIX + tokenId, ALL_PREFIX + userId);
            if (values.get(0).hasValue()) {
                return true;
            }
            return values.get(1).hasValue() && issuedAt.toEpochMilli() <= Long.parseLong(values.get(1).getValue());
        } catch (RedisException | NumberFormatException e) {
            throw new BlacklistUnavailableException(e);
        }
    }

    /**
     * Every token of the account issued up to now is revoked (logout everywhere). Tokens carry
     * their issue time in whole seconds, so one issued later in the same second is revoked too.
     *
     * @param lifetime how long any token lives; the entry outlives them all
     */
    void revokeAll(long userId, Instant now, Duration lifetime) {
        try {
            commands().set(ALL_PREFIX + userId, Long.toString(now.toEpochMilli()),
                    SetArgs.Builder.px(lifetime.plusSeconds(1).toMillis()));
        } catch (RedisException e) {
            throw new BlacklistUnavailableException(e);
        }
    }

    /** @param remaining how long the token would still be accepted; the entry lives that long */
    void revoke(String tokenId, Duration remaining) {
        long millis = Math.max(1, remaining.toMillis());
        try {
            commands().set(PREFIX + tokenId, "1", SetArgs.Builder.px(millis));
        } catch (RedisException e) {
            throw new BlacklistUnavailableException(e);
        }
    }

    boolean ping() {
        try {
            return "PONG".equals(commands().ping());
        } catch (RedisException | BlacklistUnavailableException e) {
            return false;
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
            throw new BlacklistUnavailableException(null);
        }
        try {
            connection = client.connect();
            log.info("Connected to the token blacklist at {}:{}", settings.host(), settings.port());
            return connection;
        } catch (RedisException e) {
            retryAtNanos = System.nanoTime() + settings.retryAfterFailure().toNanos();
            log.warn("Token blacklist at {}:{} is unreachable ({}); authenticated calls fail closed",
                    settings.host(), settings.port(), e.getMessage());
            throw new BlacklistUnavailableException(e);
        }
    }

    /** Connects in the background at start-up, so that the first signed-in call does not pay for it. */
    @Override
    public void start() {
        running = true;
        Thread.ofVirtual().name("token-blacklist-connect").start(() -> {
            try {
                commands();
            } catch (RuntimeException e) {
                // Already logged; the first call that needs the blacklist tries again.
            }
        });
    }

    /** Runs after the web server has drained (lower phase), so in-flight calls can still check tokens. */
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
