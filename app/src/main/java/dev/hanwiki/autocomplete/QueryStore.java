package dev.hanwiki.autocomplete;

import dev.hanwiki.cache.ShardedRedis;
import io.lettuce.core.ScriptOutputType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.commons.codec.digest.MurmurHash3;

/**
 * Popular past queries in the autocomplete keys of a version, beside the titles (ADR 0038):
 * <ul>
 *   <li>a query's member in the prefix sets is {@code q} + 16 hex digits of a 64-bit hash of its
 *       text (a post's member is its id: the two never collide), under the same raw, jamo and
 *       chosung keys a title with that text would have, scored on the titles' scale;</li>
 *   <li>its record is a field of {@code hw:ac:<v>:q:<first two hex digits>} (256 hashes):
 *       {@code expiresAt:score:query}. Reads show the entry only while it has not expired;
 *       {@link #sweep} removes expired entries from their keys and deletes their records.</li>
 * </ul>
 * Filing is idempotent (absolute score, add by member), so both nodes may file the same query.
 */
final class QueryStore {

    private static final HexFormat HEX = HexFormat.of();

    // Deletes a record only if it is still the expired one the sweep read (not re-filed meanwhile).
    private static final String DELETE_IF_SAME = """
            if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
              return redis.call('HDEL', KEYS[1], ARGV[1])
            end
            return 0
            """;

    /** A live query entry. */
    record Entry(String query, double score, long expiresAt) {
    }

    private final TitleStore titles;
    private final PrefixKeys keys;

    QueryStore(TitleStore titles, PrefixKeys keys) {
        this.titles = titles;
        this.keys = keys;
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
                        : titles.sync(version, TitleStore.bytes(member), score, Set.of(), keys.keysOf(query)));
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
     * Removes every entry of {@code version} that expired before {@code nowMillis}: its record
     * (only if not re-filed meanwhile), then its member from its keys. Returns how many went;
     * a shard that does not answer is skipped until the next sweep (reads already hide them).
     */
    int sweep(long version, long nowMillis) {
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
                if (entry != null && entry.expiresAt() > nowMillis) {
                    continue;
                }
                String member = e.getKey();
                String recordKey = recordKey(version, member);
                Long gone = redis.onShardFor(recordKey, c -> c.<Long>eval(DELETE_IF_SAME, ScriptOutputType.INTEGER,
                        new String[] {recordKey}, TitleStore.bytes(member), e.getValue()), null,
                        ShardedRedis.SCRIPT_BUDGET).join();
                if (gone != null && gone == 1L) {
                    removed++;
                    if (entry != null) {
                        titles.sync(version, TitleStore.bytes(member), 0, keys.keysOf(entry.query()), Set.of()).join();
                    }
                }
            }
        }
        return removed;
    }
}
