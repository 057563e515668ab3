package dev.hanwiki.post;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Views counted in memory between flushes: post id to views not yet in the database. Bounded in
 * distinct posts. Recording and draining are atomic per post ({@code merge}/{@code remove} of one
 * map entry), so a view recorded during a drain lands either in that drain or in the next one,
 * never in neither. The request path only ever touches this map.
 */
final class ViewBuffer {

    private final ConcurrentHashMap<Long, Long> pending = new ConcurrentHashMap<>();
    private final int maxPosts;
    private final AtomicLong dropped = new AtomicLong();

    ViewBuffer(int maxPosts) {
        this.maxPosts = maxPosts;
    }

    /** @return false if the view was dropped because the buffer is full */
    boolean record(long postId) {
        if (pending.size() >= maxPosts && !pending.containsKey(postId)) {
            dropped.incrementAndGet();
            return false;
        }
        pending.merge(postId, 1L, Long::sum);
        return true;
    }

    long pending(long postId) {
        return pending.getOrDefault(postId, 0L);
    }

    int size() {
        return pending.size();
    }

    long dropped() {
        return dropped.get();
    }

    /** Takes every pending count out of the buffer, in post id order (the order rows are locked in). */
    Map<Long, Long> drain() {
        Map<Long, Long> drained = new TreeMap<>();
        for (Long postId : pending.keySet()) {
            Long views = pending.remove(postId);
            if (views != null) {
                drained.put(postId, views);
            }
        }
        return drained;
    }

    /** Puts back counts whose flush failed; this may briefly exceed the bound rather than lose them. */
    void restore(Map<Long, Long> counts) {
        counts.forEach((postId, views) -> pending.merge(postId, views, Long::sum));
    }
}
