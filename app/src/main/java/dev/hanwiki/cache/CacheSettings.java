package dev.hanwiki.cache;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code hanwiki.cache.*}: the L2 shards and how the cache treats them.
 *
 * @param shards      the Redis cache shards; a shard's NAME places it on the ring, so keep names
 *                    stable when addresses change
 * @param vnodes      ring points per shard
 * @param timeout     per-command budget for one shard; past it the call is a miss
 * @param breakerOpen how long a tripped shard is skipped before it is probed again
 * @param username    the Redis ACL user of every shard (null: the default user)
 * @param password    its password (null: none); never logged
 *
 * <p>L1 sizes are per region ({@code hanwiki.post-cache.l1-max-size},
 * {@code hanwiki.search-cache.l1-max-size}), set by the features that own them.
 */
@Validated
@ConfigurationProperties("hanwiki.cache")
public record CacheSettings(
        @NotEmpty List<@Valid Shard> shards,
        @Min(1) @DefaultValue("" + DEFAULT_VNODES) int vnodes,
        @NotNull @DefaultValue("30ms") Duration timeout,
        @NotNull @DefaultValue("2s") Duration breakerOpen,
        String username,
        String password) {

    public static final int DEFAULT_VNODES = 1024;

    @ConstructorBinding
    public CacheSettings {
    }

    /** Shards without credentials (tests against throwaway Redis servers). */
    public CacheSettings(List<Shard> shards, int vnodes, Duration timeout, Duration breakerOpen) {
        this(shards, vnodes, timeout, breakerOpen, null, null);
    }

    /** The same settings with these credentials. */
    public CacheSettings withCredentials(String user, String secret) {
        return new CacheSettings(shards, vnodes, timeout, breakerOpen, user, secret);
    }

    @Override
    public String toString() {
        return "CacheSettings[shards=" + shards + ", vnodes=" + vnodes + ", timeout=" + timeout + ", breakerOpen="
                + breakerOpen + ", username=" + username + ", password="
                + (password == null ? "none" : "(hidden)") + "]";
    }

    public record Shard(@NotBlank String name, @NotBlank @DefaultValue("127.0.0.1") String host, @Min(1) int port) {
    }
}
