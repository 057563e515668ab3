package dev.hanwiki.autocomplete;

import dev.hanwiki.cache.ShardedRedis;
import io.lettuce.core.ScriptOutputType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.commons.codec.digest.MurmurHash3;

/**
 * Popular past queries in the autocomplete data of a version, beside the titles (ADR 0038):
 * <ul>
 *   <li>prefix keys of their own: {@code qr:}, {@code qj:} and {@code qc:} + the raw, jamo and
 *       chosung prefixes a title with that text would be filed under ({@link #keysOf}), each
 *       trimmed to its own {@code keep}, so a query never takes a title's place in a title key
 *       (a full title key means what it meant before queries existed);</li>
 *   <li>a query's member is {@code q} + 16 hex digits of a 64-bit hash of its text, scored on
 *       the titles' scale;</li>
 *   <li>its record is a field of {@code hw:ac:<v>:q:<first two hex digits>} (256 hashes):
 *       {@code expiresAt:score:query}. Reads show the entry only while it has not expired;
 *       {@link #sweep} removes expired entries from their keys and deletes their records.</li>
 * </ul>
 * Filing is idempotent (absolute score, add by member), so both nodes may file the same query;
 * the sweep puts back a member whose record a node re-filed while the sweep was removing it.
 */
final class QueryStore {

    private static final HexFormat HEX = HexFormat.of();
    /** Prefixes a title key's suffix: {@code r:서} is {@code qr:서} for queries. */
    static final String KEY_TAG = "q";

    // Deletes a record only if it is still the expired one the sweep read; otherwise returns
    // what is there now (a node re-filed it meanwhile), or nothing (the other node's sweep won).
    private static final String DELETE_IF_SAME = """
            local cur = redis.call('HGET', KEYS[1], ARGV[1])
            if cur == ARGV[2] then
              redis.call('HDEL', KEYS[1], ARGV[1])
              return {1}
            end
            if cur then return {0, cur} end
            return {0}
            """;

    /** A live query entry. */
    record Entry(String query, double score, long expiresAt) {
    }

    private final TitleStore titles;
    private final PrefixKeys keys;
    private final int keep;

    QueryStore(TitleStore titles, PrefixKeys keys, int keep) {
        this.titles = titles;
        this.keys = keys;
        this.keep = keep;
    }

    int keep() {
        return keep;
    }

    /** The query key beside a title key suffix ({@code r:서} gives {@code qr:서}). */
    static String queryKey(String titleSuffix) {
        return KEY_TAG + titleSuffix;
    }

    /** Every query key suffix a (normalized) query is filed under. */
    Set<String> keysOf(String query) {
        Set<String> out = new LinkedHashSet<>();
        for (String suffix : keys.keysOf(query)) {
            out.add(queryKey(suffix));
        }
        return out;
    }

    static boolean isQueryMember(String member) {
        return !member.isEmpty() && member.charAt(0) == 'q';
    }

    /** The sorted-set member of a (normalized) query. */
    static String member(String query) {
        return "q" + hash(query);
    }

    /** 16 hex digits of a 64-bit hash (MurmurHash3, as the ring): query members and client ids. */
    static String hash(String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return HEX.toHexDigits(MurmurHash3.hash128x64(b, 0, b.length, 0)[0]);
    }

    static String recordKey(long version, String member) {
        return TitleStore.ROOT + version + ":q:" + member.substring(1, 3);
    }

    /**
     * Files {@code query} with {@code score} until {@code expiresAt}: its record, then its
     * prefix keys. Completes with false if a command did not reach Redis.
     */
    CompletableFuture<Boolean> file(long version, String query, double score, long expiresAt) {
        String member = member(query);
        String recordKey = recordKey(version, member);
        byte[] record = TitleStore.bytes(expiresAt + ":" + score + ":" + query);
        return titles.redis().onShardFor(recordKey, c -> c.hset(recordKey, member, record), null,
                        ShardedRedis.SCRIPT_BUDGET)
                .thenCompose(set -> set == null ? CompletableFuture.completedFuture(false)
                        : titles.sync(version, TitleStore.bytes(member), score, Set.of(), keysOf(query), keep));
    }

    /** Queries an operator removed: never filed again (one small set, on the shard of its key). */
    static final String BANNED = TitleStore.ROOT + "q-banned";

    /**
     * Removes {@code query} from {@code version} at once: its record is overwritten as expired
     * (reads hide it from then on), then swept out of its keys. False if a shard did not answer.
     */
    boolean remove(long version, String query) {
        String member = member(query);
        String recordKey = recordKey(version, member);
        byte[] expired = TitleStore.bytes("0:0:" + query);
        Boolean set = titles.redis().onShardFor(recordKey, c -> c.hset(recordKey, member, expired), null,
                ShardedRedis.SCRIPT_BUDGET).join();
        return set != null && sweepEntry(version, member, expired, System.currentTimeMillis(), () -> { });
    }

    /** Adds {@code query} to the banned set; false if its shard did not answer. */
    boolean ban(String query) {
        Long added = titles.redis().onShardFor(BANNED, c -> c.sadd(BANNED, TitleStore.bytes(query)), null,
                ShardedRedis.SCRIPT_BUDGET).join();
        return added != null;
    }

    /** The banned queries; empty when the shard does not answer (the next flush asks again). */
    Set<String> banned() {
        Set<byte[]> members = titles.redis().onShardFor(BANNED, c -> c.smembers(BANNED), Set.<byte[]>of(),
                ShardedRedis.SCRIPT_BUDGET).join();
        Set<String> out = new java.util.HashSet<>();
        for (byte[] m : members) {
            out.add(new String(m, StandardCharsets.UTF_8));
        }
        return out;
    }

    /** A query record's entry; null for a malformed record (never shown). */
    static Entry parse(byte[] record) {
        if (record == null || record.length == 0) {
            return null;
        }
        String[] parts = new String(record, StandardCharsets.UTF_8).split(":", 3);
        if (parts.length < 3) {
            return null;
        }
        try {
            return new Entry(parts[2], Double.parseDouble(parts[1]), Long.parseLong(parts[0]));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Removes every entry of {@code version} that expired before {@code nowMillis}. Returns how
     * many went; a shard that does not answer is skipped until the next sweep (reads already
     * hide expired entries).
     */
    int sweep(long version, long nowMillis) {
        return sweep(version, nowMillis, () -> { });
    }

    /**
     * {@link #sweep(long, long)}, running {@code afterRead} after an expired record was read and
     * before its member leaves its keys: where a re-filing by the other node races it (tests).
     */
    int sweep(long version, long nowMillis, Runnable afterRead) {
        ShardedRedis redis = titles.redis();
        List<CompletableFuture<Map<String, byte[]>>> buckets = new ArrayList<>(256);
        for (int b = 0; b < 256; b++) {
            String key = TitleStore.ROOT + version + ":q:" + HEX.toHexDigits((byte) b);
            buckets.add(redis.onShardFor(key, c -> c.hgetall(key), Map.of(), ShardedRedis.SCRIPT_BUDGET));
        }
        int removed = 0;
        for (CompletableFuture<Map<String, byte[]>> bucket : buckets) {
            for (var e : bucket.join().entrySet()) {
                Entry entry = parse(e.getValue());
                if ((entry == null || entry.expiresAt() <= nowMillis)
                        && sweepEntry(version, e.getKey(), e.getValue(), nowMillis, afterRead)) {
                    removed++;
                }
            }
        }
        return removed;
    }

    /**
     * One expired entry, in this order so that a re-filing racing the sweep always ends with its
     * member in its keys: the member leaves its keys; then its record is deleted only if it is
     * still the expired {@code seen} (one script on the record's shard); if a node re-filed it
     * meanwhile, the member goes back into its keys with the live record's score (filing adds by
     * member with an absolute score, so the member ends up present; its score in a set may lag a
     * concurrent re-score until the next filing, and answers sort by the record's score anyway).
     */
    private boolean sweepEntry(long version, String member, byte[] seen, long nowMillis, Runnable afterRead) {
        byte[] id = TitleStore.bytes(member);
        Entry entry = parse(seen);
        afterRead.run();
        if (entry != null && !Boolean.TRUE.equals(titles.sync(version, id, 0, keysOf(entry.query()), Set.of(), keep).join())) {
            return false; // a shard did not answer: the record stays, the next sweep tries again
        }
        String recordKey = recordKey(version, member);
        List<Object> outcome = titles.redis().onShardFor(recordKey, c -> c.<List<Object>>eval(DELETE_IF_SAME,
                ScriptOutputType.MULTI, new String[] {recordKey}, id, seen), null, ShardedRedis.SCRIPT_BUDGET).join();
        if (outcome == null) {
            return false; // the record (still expired) stays: the next sweep removes it
        }
        if ((Long) outcome.get(0) == 1L) {
            return true;
        }
        Entry now = outcome.size() > 1 ? parse((byte[]) outcome.get(1)) : null;
        if (now != null && now.expiresAt() > nowMillis) {
            titles.sync(version, id, now.score(), Set.of(), keysOf(now.query()), keep).join();
        }
        return false;
    }
}
