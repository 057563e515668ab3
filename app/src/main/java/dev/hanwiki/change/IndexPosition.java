package dev.hanwiki.change;

import java.util.Map;

/**
 * Where a node's search stands in the change stream: for each partition of the change topic,
 * the offset its searcher shows every record before. Two nodes that applied the same records
 * have equal positions, so a position says whether an answer computed on one node can be
 * older than what another node's index already shows.
 */
public record IndexPosition(Map<Integer, Long> offsets) {

    /** Nothing applied yet (a node that just started, or a cache entry written before positions existed). */
    public static final IndexPosition NONE = new IndexPosition(Map.of());

    public IndexPosition {
        offsets = offsets == null ? Map.of() : Map.copyOf(offsets);
    }

    /** Whether every record {@code other} shows is shown here too (per partition, at least as far). */
    public boolean covers(IndexPosition other) {
        return other.offsets.entrySet().stream()
                .allMatch(p -> offsets.getOrDefault(p.getKey(), -1L) >= p.getValue());
    }
}
