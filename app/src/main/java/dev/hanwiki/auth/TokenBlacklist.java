package dev.hanwiki.auth;

import dev.hanwiki.platform.RedisStore;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisException;
import io.lettuce.core.SetArgs;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Revoked token ids in the auth Redis: key {@code bl:<jti>}, TTL the token's remaining
 * lifetime, so the set drains by itself; and per account, {@code ra:<userId>}: the time of a
 * logout everywhere, which revokes every token issued until then (TTL a token's lifetime). Sole owner of the Lettuce client and its one
 * connection ({@link RedisStore}). It never guesses: when Redis cannot answer within the timeout, or is known to be
 * unreachable, every call throws {@link BlacklistUnavailableException}.
 */
@Component
class TokenBlacklist extends RedisStore {

    private static final String PREFIX = "bl:";
    /** {@code ra:<userId>}: epoch millis before which every token of the account is revoked. */
    private static final String ALL_PREFIX = "ra:";

    TokenBlacklist(AuthSettings settings) {
        super("token blacklist", "authenticated calls fail closed", target(settings.blacklist()));
    }

    private static Target target(AuthSettings.Blacklist blacklist) {
        return new Target(blacklist.host(), blacklist.port(), blacklist.username(), blacklist.password(),
                blacklist.timeout(), blacklist.connectTimeout(), blacklist.retryAfterFailure());
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
        } catch (RedisException e) {
            return false;
        }
    }
}
