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
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * {@code hanwiki.cache.*}: the L2 shards and how the cache treats them.
 *
 * @param shards      the Redis cache shards; a shard's NAME places it on the ring, so keep names
 *                    stable when addresses change
 * @param vnodes      ring points per shard
 * @param timeout     per-command budget for one shard; past it the call is a miss
 * @param breakerOpen how long a tripped shard is skipped before it is probed again
 * @param l1MaxSize   total weight (serialized bytes) of this node's L1
 * @param username    the Redis ACL user of every shard (null: the default user)
 * @param password    its password (null: none); never logged
 */
@Validated
@ConfigurationProperties("hanwiki.cache")
public record CacheSettings(
        @NotEmpty List<@Valid Shard> shards,
        @Min(1) @DefaultValue("" + DEFAULT_VNODES) int vnodes,
        @NotNull @DefaultValue("30ms") Duration timeout,
        @NotNull @DefaultValue("2s") Duration breakerOpen,
        @NotNull @DefaultValue("64MB") DataSize l1MaxSize,
        String username,
        String password) {

    public static final int DEFAULT_VNODES = 1024;

    @ConstructorBinding
    public CacheSettings {
    }

    /** Shards without credentials (tests against throwaway Redis servers). */
    public CacheSettings(List<Shard> shards, int vnodes, Duration timeout, Duration breakerOpen, DataSize l1MaxSize) {
        this(shards, vnodes, timeout, breakerOpen, l1MaxSize, null, null);
    }

    /** The same settings with these credentials. */
    public CacheSettings withCredentials(String user, String secret) {
        return new CacheSettings(shards, vnodes, timeout, breakerOpen, l1MaxSize, user, secret);
    }

    @Override
    public String toString() {
        return "CacheSettings[shards=" + shards + ", vnodes=" + vnodes + ", timeout=" + timeout + ", breakerOpen="
                + breakerOpen + ", l1MaxSize=" + l1MaxSize + ", username=" + username + ", password="
                + (password == null ? "none" : "(hidden)") + "]";
    }

    public record Shard(@NotBlank String name, @NotBlank @DefaultValue("127.0.0.1") String host, @Min(1) int port) {
    }
}
