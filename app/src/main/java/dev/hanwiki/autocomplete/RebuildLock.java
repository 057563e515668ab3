package dev.hanwiki.autocomplete;

import dev.hanwiki.cache.ShardedRedis;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import java.time.Duration;

/**
 * The one-rebuild-at-a-time lock ({@code hw:ac:lock} on the shard the ring picks for it). Its
 * value names the holder ({@code <node>:<version>}), and it is refreshed and released only by
 * that holder (compare-and-expire, compare-and-delete in one script): a builder that stalled
 * past the expiry must not delete or extend the lock a later builder took meanwhile.
 */
final class RebuildLock {

    enum Outcome { TAKEN, HELD, UNAVAILABLE }

    // ARGV[1]: the holder's value; ARGV[2]: the new expiry in ms, or nothing to release.
    private static final String IF_OURS = """
            if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
            if ARGV[2] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
            return redis.call('DEL', KEYS[1])
            """;

    private final ShardedRedis redis;
    private final String node;
    private final Duration ttl;

    RebuildLock(ShardedRedis redis, String node, Duration ttl) {
        this.redis = redis;
        this.node = node;
        this.ttl = ttl;
    }

    /** Takes the lock for building {@code version} (SET NX with the expiry). */
    Outcome take(long version) {
        String key = TitleStore.LOCK_KEY;
        String unavailable = "unavailable";
        // "OK" when granted, null (nil) when another builder holds the lock.
        String granted = redis.onShardFor(key, c -> c.set(key, TitleStore.bytes(holder(version)),
                SetArgs.Builder.nx().px(ttl.toMillis())), unavailable).join();
        if (unavailable.equals(granted)) {
            return Outcome.UNAVAILABLE;
        }
        return "OK".equals(granted) ? Outcome.TAKEN : Outcome.HELD;
    }

    /** Extends the lock if it is still ours; false if it is not (or its shard did not answer). */
    boolean refresh(long version) {
        return ifOurs(version, TitleStore.bytes(Long.toString(ttl.toMillis())));
    }

    /** Deletes the lock if it is still ours. */
    boolean release(long version) {
        return ifOurs(version);
    }

    private boolean ifOurs(long version, byte[]... extra) {
        String key = TitleStore.LOCK_KEY;
        byte[][] args = new byte[1 + extra.length][];
        args[0] = TitleStore.bytes(holder(version));
        System.arraycopy(extra, 0, args, 1, extra.length);
        Long done = redis.onShardFor(key, c -> c.<Long>eval(IF_OURS, ScriptOutputType.INTEGER, new String[] {key}, args),
                null, ShardedRedis.SCRIPT_BUDGET).join();
        return done != null && done == 1L;
    }

    String holder(long version) {
        return node + ":" + version;
    }
}
