package dev.hanwiki.limits;

import dev.hanwiki.platform.RedisStore;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * The buckets in the auth Redis: sole owner of this package's Lettuce client and its one
 * connection (the token blacklist keeps its own). A bucket is one hash updated atomically by
 * {@code limits/token-bucket.lua} on Redis' clock, so both nodes see one state and no two
 * concurrent attempts can take the same token. When Redis cannot answer within the timeout,
 * or is known to be unreachable, every call throws {@link LimitsUnavailableException}
 * (fail closed); commands are rejected rather than queued while disconnected ({@link RedisStore}).
 */
@Component
class LimitStore extends RedisStore {

    static final int TAKE = 1;
    static final int PEEK = 0;
    static final int GIVE_BACK = -1;

    private final String script;

    LimitStore(LimitSettings settings) {
        super("limit store", "logins and writes fail closed", target(settings.store()));
        this.script = loadScript();
    }

    private static Target target(LimitSettings.Store store) {
        return new Target(store.host(), store.port(), store.username(), store.password(), store.timeout(),
                store.connectTimeout(), store.retryAfterFailure());
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
}
