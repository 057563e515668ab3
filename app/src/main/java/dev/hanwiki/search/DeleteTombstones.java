package dev.hanwiki.search;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.StringJoiner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The version tombstones of deleted posts (ADR 0040): post id -> the version its delete ended
 * and when the delete happened. An upsert of a version up to the tombstone's is refused, so a
 * late, older event cannot resurrect a deleted post. They live beside the index, not in it, and
 * travel in every Lucene commit's user data ({@link #KEY}), so they are exactly as durable as
 * the deletes and the offsets committed with them: a crash rolls all three back together.
 * <p>
 * Bounded twice: tombstones older than the retention cutoff are forgotten (and never created
 * for deletes already older than it, e.g. when a node rebuilds from the topic), and past
 * {@link #SOFT_CAP} entries the oldest are dropped at the next expiry. Not thread-safe: the
 * index calls it under its write lock.
 */
final class DeleteTombstones {

    /** Commit user data key. */
    static final String KEY = "hanwiki.tombstones";
    /** About 30 bytes each in every commit: 100,000 is 3 MB per commit, the most we accept. */
    static final int SOFT_CAP = 100_000;
    private static final Logger log = LoggerFactory.getLogger(DeleteTombstones.class);

    record Tombstone(long version, long deletedAtMillis) {
    }

    private final Map<Long, Tombstone> byId = new HashMap<>();
    private long cutoffMillis = Long.MIN_VALUE;
    /** The last encoding, until something changes: commits come every second, deletes rarely. */
    private String encoded;

    /** Tombstones as a previous commit recorded them ({@code id:version:millis,...}). */
    static DeleteTombstones decode(String encoded) {
        DeleteTombstones tombstones = new DeleteTombstones();
        if (encoded == null || encoded.isEmpty()) {
            return tombstones;
        }
        for (String entry : encoded.split(",")) {
            String[] parts = entry.split(":");
            tombstones.byId.put(Long.parseLong(parts[0]), new Tombstone(Long.parseLong(parts[1]), Long.parseLong(parts[2])));
        }
        return tombstones;
    }

    String encode() {
        if (encoded == null) {
            StringJoiner out = new StringJoiner(",");
            byId.forEach((id, t) -> out.add(id + ":" + t.version() + ":" + t.deletedAtMillis()));
            encoded = out.toString();
        }
        return encoded;
    }

    /** Adds the encoded tombstones to a commit's user data (nothing when there are none). */
    void addTo(Map<String, String> userData) {
        if (!byId.isEmpty()) {
            userData.put(KEY, encode());
        }
    }

    /** The live tombstone of {@code id}, or null. */
    Tombstone get(long id) {
        return byId.get(id);
    }

    /** Remembers a delete, unless it is already older than the retention cutoff. */
    void put(long id, long version, long deletedAtMillis) {
        encoded = null;
        if (deletedAtMillis < cutoffMillis) {
            byId.remove(id);
            return;
        }
        byId.put(id, new Tombstone(version, deletedAtMillis));
    }

    /** A newer version of the post was indexed: the tombstone has nothing left to guard. */
    void remove(long id) {
        if (byId.remove(id) != null) {
            encoded = null;
        }
    }

    /** Forgets deletes before {@code cutoffMillis}, then the oldest beyond the soft cap. Returns how many went. */
    int expire(long cutoffMillis) {
        this.cutoffMillis = Math.max(this.cutoffMillis, cutoffMillis);
        int before = byId.size();
        byId.values().removeIf(t -> t.deletedAtMillis() < this.cutoffMillis);
        int overflow = byId.size() - SOFT_CAP;
        if (overflow > 0) {
            log.warn("{} delete tombstones exceed the cap of {}: dropping the {} oldest early", byId.size(), SOFT_CAP, overflow);
            byId.entrySet().stream()
                    .sorted(Comparator.comparingLong(e -> e.getValue().deletedAtMillis()))
                    .limit(overflow)
                    .map(Map.Entry::getKey)
                    .toList()
                    .forEach(byId::remove);
        }
        if (byId.size() != before) {
            encoded = null;
        }
        return before - byId.size();
    }

    int size() {
        return byId.size();
    }
}
