package dev.hanwiki.platform;

import io.lettuce.core.RedisURI;

/**
 * How every Redis client of a node logs in (ADR 0052): with its ACL user and password when a
 * password is set, as the default user when only a password is, and not at all without one.
 * One place, so the cache shards, the token blacklist and the limit store cannot drift apart.
 */
public final class RedisLogin {

    private RedisLogin() {
    }

    /** {@code uri} with the login for {@code username}/{@code password} (either may be null or empty). */
    public static RedisURI.Builder apply(RedisURI.Builder uri, String username, String password) {
        if (password == null || password.isEmpty()) {
            return uri;
        }
        return username == null || username.isEmpty() ? uri.withPassword(password.toCharArray())
                : uri.withAuthentication(username, password);
    }
}
