package dev.hanwiki.search;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counter changes of posts the index does not hold yet (ADR 0080). In the change stream a
 * post's counter row always follows the post's creation, but a node replaying the compacted
 * topic may meet the newest counter row of a post before the post's newest page row (the page
 * was edited after its last like). The counts wait here until the page arrives, and travel in
 * every commit's user data ({@link #KEY}) like the delete tombstones, so a crash between the two
 * loses nothing. Bounded by {@link #CAP}: past it the oldest are dropped (that page ranks by
 * older counts until its next counter change). Not thread-safe: the index calls it under its
 * write lock.
 */
final class PendingCounters {

    static final String KEY = "hanwiki.pendingCounters";
    /** About 30 bytes each in every commit: the same budget as the tombstones. */
    static final int CAP = 100_000;
    private static final Logger log = LoggerFactory.getLogger(PendingCounters.class);

    private final Map<Long, PostCounters> byId = new LinkedHashMap<>();
    private String encoded;
    private long dropped;

    /** As a previous commit recorded them ({@code id:views:likes:version,...}). */
    static PendingCounters decode(String encoded) {
        PendingCounters pending = new PendingCounters();
        if (encoded == null || encoded.isEmpty()) {
            return pending;
        }
        for (String entry : encoded.split(",")) {
            String[] p = entry.split(":");
            pending.byId.put(Long.parseLong(p[0]), new PostCounters(Long.parseLong(p[1]), Long.parseLong(p[2]), Long.parseLong(p[3])));
        }
        return pending;
    }

    void addTo(Map<String, String> userData) {
        if (byId.isEmpty()) {
            return;
        }
        if (encoded == null) {
            StringJoiner out = new StringJoiner(",");
            byId.forEach((id, c) -> out.add(id + ":" + c.views() + ":" + c.likes() + ":" + c.version()));
            encoded = out.toString();
        }
        userData.put(KEY, encoded);
    }

    /** Keeps the newer of what is waiting and {@code counters}. */
    void put(long id, PostCounters counters) {
        PostCounters waiting = byId.get(id);
        if (waiting != null && waiting.version() >= counters.version()) {
            return;
        }
        encoded = null;
        byId.remove(id);
        byId.put(id, counters);
        if (byId.size() > CAP) {
            Iterator<Long> oldest = byId.keySet().iterator();
            oldest.next();
            oldest.remove();
            if (dropped++ % 10_000 == 0) {
                log.warn("More than {} counter changes wait for their pages; dropping the oldest ({} so far)", CAP, dropped);
            }
        }
    }

    /** What waited for this post (then forgotten), or null. */
    PostCounters take(long id) {
        PostCounters waiting = byId.remove(id);
        if (waiting != null) {
            encoded = null;
        }
        return waiting;
    }

    int size() {
        return byId.size();
    }
}
