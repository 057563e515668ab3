package dev.hanwiki.autocomplete;

import dev.hanwiki.cache.ShardedRedis;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The autocomplete data in Redis, spread over the cache shards by the ring. Everything lives
 * under a key VERSION ({@code hw:ac:<version>:...}) so a rebuild can write a whole new set and
 * switch to it at once:
 * <ul>
 *   <li>{@code hw:ac:<v>:r:<prefix>}, {@code ...:j:<keystrokes>}, {@code ...:c:<initials>}: sorted
 *       sets of post ids scored by popularity, trimmed to the {@code keep} best;</li>
 *   <li>{@code hw:ac:<v>:t:<id/64>}: a hash of per-post records {@code version:score:title}, or a
 *       tombstone {@code -title} once deleted. The record is the truth a read checks entries
 *       against, and tells a rename which keys the old title had.</li>
 * </ul>
 * Popular past queries have prefix keys and records of their own beside these, in the same
 * version ({@link QueryStore}): they never take a title's place. Reads fetch both kinds of
 * record here, one script per shard.
 * Writes are idempotent (absolute scores, remove by member) and guarded by the record's row
 * version in one script on the record's shard, so both nodes can apply every change, in any
 * interleaving, and replays never regress a title. A shard that is down makes a write report
 * failure (the caller retries) and a read report "unavailable" (the caller falls back).
 */
final class TitleStore {

    static final String ROOT = "hw:ac:";
    /** On every shard: the version readers use. A shard without it (or with an older one) lost its keys. */
    static final String VERSION_KEY = ROOT + "version";
    /** On every shard while a rebuild runs: the version being built (expires if the builder dies). */
    static final String BUILDING_KEY = ROOT + "building";
    static final String LOCK_KEY = ROOT + "lock";
    /** Fallback value marking an unavailable shard (compared by identity). */
    static final byte[] UNAVAILABLE = new byte[0];

    enum Mode {
        /** An incremental change: applies over an equal or older record. */
        UPSERT("u"),
        /** A rebuild's snapshot: applies only over an older record, never over a live change. */
        SNAPSHOT("s"),
        /** A deletion: leaves a tombstone that no later upsert of the same post can pass. */
        DELETE("d");

        final byte[] flag;

        Mode(String flag) {
            this.flag = flag.getBytes(StandardCharsets.UTF_8);
        }
    }

    /** One post's title and popularity at a row version. */
    record Entry(long id, String title, long version, double score) {
    }

    // Returns {outcome, previous record (if any)}: 1 applied, 0 refused (older, or a tombstone),
    // 2 identical. Tombstones start with '-'. An identical record is not rewritten, but its
    // prefix keys are synced again: the write that stored it may have failed before its keys
    // landed (a timeout, a shard down), and this replay or retry is what completes it.
    private static final String CAS = """
            local cur = redis.call('HGET', KEYS[1], ARGV[1])
            local mode = ARGV[4]
            if cur and mode ~= 'd' then
              if string.sub(cur, 1, 1) == '-' then return {0, cur} end
              if cur == ARGV[3] then return {2} end
              local v = tonumber(string.match(cur, '^(%d+)'))
              local n = tonumber(ARGV[2])
              if v > n or (mode == 's' and v == n) then return {0, cur} end
            end
            if mode == 'd' and cur and string.sub(cur, 1, 1) ~= '-' then
              local title = string.match(cur, '^%d+:[^:]*:(.*)$') or ''
              redis.call('HSET', KEYS[1], ARGV[1], '-' .. title)
            elseif mode == 'd' and not cur then
              redis.call('HSET', KEYS[1], ARGV[1], '-')
            elseif mode ~= 'd' then
              redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
            end
            if cur then return {1, cur} end
            return {1}
            """;

    private final ShardedRedis redis;
    private final PrefixKeys keys;
    private final int keep;

    TitleStore(ShardedRedis redis, PrefixKeys keys, int keep) {
        this.redis = redis;
        this.keys = keys;
        this.keep = keep;
    }

    ShardedRedis redis() {
        return redis;
    }

    static String key(long version, String suffix) {
        return ROOT + version + ":" + suffix;
    }

    static String recordKey(long version, long id) {
        return ROOT + version + ":t:" + (id >>> 6);
    }

    /**
     * Files {@code entry} under {@code version} (or deletes it: only {@code id} matters then).
     * Completes with false if any command did not reach Redis; true otherwise, including when
     * the record already held a newer version and nothing was written.
     */
    CompletableFuture<Boolean> write(long version, Entry entry, Mode mode) {
        String recordKey = recordKey(version, entry.id());
        byte[] id = bytes(Long.toString(entry.id()));
        byte[] record = mode == Mode.DELETE ? new byte[0]
                : bytes(entry.version() + ":" + entry.score() + ":" + entry.title());
        CompletableFuture<List<Object>> cas = redis.onShardFor(recordKey, c -> c.<List<Object>>eval(CAS,
                ScriptOutputType.MULTI, new String[] {recordKey}, id, bytes(Long.toString(entry.version())), record,
                mode.flag), null, ShardedRedis.SCRIPT_BUDGET);
        return cas.thenCompose(result -> {
            if (result == null) {
                return CompletableFuture.completedFuture(false);
            }
            long outcome = (Long) result.get(0);
            if (outcome == 0L) {
                return CompletableFuture.completedFuture(true);
            }
            // Identical (2): the same title's keys again; no other title to leave.
            String previous = outcome == 1L && result.size() > 1 ? titleOf((byte[]) result.get(1)) : null;
            Set<String> now = mode == Mode.DELETE ? Set.of() : keys.keysOf(entry.title());
            Set<String> gone = new LinkedHashSet<>(previous == null ? Set.of() : keys.keysOf(previous));
            gone.removeAll(now);
            return sync(version, id, entry.score(), gone, now, keep);
        });
    }

    // Removes the member from the first ARGV[4] keys, adds it to the rest and trims those to ARGV[3].
    private static final String SYNC = """
            local removals = tonumber(ARGV[4])
            for i = 1, #KEYS do
              if i <= removals then
                redis.call('ZREM', KEYS[i], ARGV[1])
              else
                redis.call('ZADD', KEYS[i], ARGV[2], ARGV[1])
                redis.call('ZREMRANGEBYRANK', KEYS[i], 0, -(tonumber(ARGV[3]) + 1))
              end
            end
            return #KEYS
            """;

    /**
     * One script per shard: the member (a post id, or a query's member in the query keys) leaves
     * {@code gone} and joins {@code now} with its score, each of those trimmed to the best {@code keep}.
     */
    CompletableFuture<Boolean> sync(long version, byte[] id, double score, Set<String> gone, Set<String> now,
            int keep) {
        Map<String, List<String>> removals = new HashMap<>();
        Map<String, List<String>> additions = new HashMap<>();
        for (String suffix : gone) {
            String k = key(version, suffix);
            removals.computeIfAbsent(redis.shardNameFor(k), s -> new ArrayList<>()).add(k);
        }
        for (String suffix : now) {
            String k = key(version, suffix);
            additions.computeIfAbsent(redis.shardNameFor(k), s -> new ArrayList<>()).add(k);
        }
        Set<String> shards = new LinkedHashSet<>(removals.keySet());
        shards.addAll(additions.keySet());
        List<CompletableFuture<Long>> scripts = new ArrayList<>(shards.size());
        for (String shard : shards) {
            List<String> out = removals.getOrDefault(shard, List.of());
            List<String> all = new ArrayList<>(out);
            all.addAll(additions.getOrDefault(shard, List.of()));
            String[] shardKeys = all.toArray(String[]::new);
            scripts.add(redis.onShard(shard, c -> c.<Long>eval(SYNC, ScriptOutputType.INTEGER, shardKeys, id,
                    bytes(Double.toString(score)), bytes(Integer.toString(keep)), bytes(Integer.toString(out.size()))),
                    null, ShardedRedis.SCRIPT_BUDGET));
        }
        return CompletableFuture.allOf(scripts.toArray(CompletableFuture[]::new))
                .thenApply(done -> scripts.stream().allMatch(f -> f.join() != null));
    }

    /** The best {@code keep} ids under a title key with their scores, or null if its shard is unavailable. */
    CompletableFuture<List<ScoredValue<byte[]>>> top(long version, String suffix) {
        return top(version, suffix, keep);
    }

    /** The best {@code limit} members under a key with their scores, or null if its shard is unavailable. */
    CompletableFuture<List<ScoredValue<byte[]>>> top(long version, String suffix, int limit) {
        String k = key(version, suffix);
        return redis.onShardFor(k, c -> c.zrevrangeWithScores(k, 0, limit - 1), null);
    }

    int keep() {
        return keep;
    }

    // Reads one field of each hash: KEYS[i], ARGV[i] (the field is the member itself). A missing one is false (nil in the reply),
    // not a hole that would cut the list short. Read-only (EVAL_RO): a cache read's budget.
    private static final String FIELDS = """
            local out = {}
            for i = 1, #KEYS do
              out[i] = redis.call('HGET', KEYS[i], ARGV[i]) or false
            end
            return out
            """;

    /**
     * The records of sorted-set members (post ids, or query members, see {@link QueryStore}),
     * in order: one read-only script per shard, all shards at once. An element is null when
     * there is no record and {@link #UNAVAILABLE} when its shard did not answer.
     */
    CompletableFuture<List<byte[]>> records(long version, List<String> members) {
        Map<String, List<Integer>> byShard = new LinkedHashMap<>();
        String[] keysOf = new String[members.size()];
        for (int i = 0; i < members.size(); i++) {
            keysOf[i] = recordKeyOf(version, members.get(i));
            byShard.computeIfAbsent(redis.shardNameFor(keysOf[i]), s -> new ArrayList<>()).add(i);
        }
        byte[][] found = new byte[members.size()][];
        List<CompletableFuture<Void>> reads = new ArrayList<>(byShard.size());
        for (var e : byShard.entrySet()) {
            List<Integer> at = e.getValue();
            String[] shardKeys = at.stream().map(i -> keysOf[i]).toArray(String[]::new);
            byte[][] fields = at.stream().map(i -> bytes(members.get(i))).toArray(byte[][]::new);
            reads.add(redis.onShard(e.getKey(), c -> c.<List<Object>>evalReadOnly(FIELDS, ScriptOutputType.MULTI,
                    shardKeys, fields), null).thenAccept(values -> {
                        for (int j = 0; j < at.size(); j++) {
                            found[at.get(j)] = values == null ? UNAVAILABLE
                                    : values.get(j) instanceof byte[] b ? b : null;
                        }
                    }));
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(done -> Arrays.asList(found));
    }

    /** The hash holding a member's record: a post's {@code t:<id/64>}, or a query's {@code q:<bucket>}. */
    static String recordKeyOf(long version, String member) {
        return QueryStore.isQueryMember(member) ? QueryStore.recordKey(version, member)
                : recordKey(version, Long.parseLong(member));
    }

    /** The shard that owns a version's key (to tell whether that shard lost its data). */
    String shardOf(long version, String suffix) {
        return redis.shardNameFor(key(version, suffix));
    }

    String shardOfRecord(long version, String member) {
        return redis.shardNameFor(recordKeyOf(version, member));
    }

    /** A live record's title and score, or null for a tombstone or nothing. */
    static Entry parse(long id, byte[] record) {
        if (record == null || record.length == 0 || record[0] == '-') {
            return null;
        }
        String[] parts = new String(record, StandardCharsets.UTF_8).split(":", 3);
        if (parts.length < 3) {
            return null;
        }
        return new Entry(id, parts[2], Long.parseLong(parts[0]), Double.parseDouble(parts[1]));
    }

    private static String titleOf(byte[] record) {
        String s = new String(record, StandardCharsets.UTF_8);
        if (s.startsWith("-")) {
            return s.length() > 1 ? s.substring(1) : null;
        }
        String[] parts = s.split(":", 3);
        return parts.length == 3 ? parts[2] : null;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
