package dev.hanwiki.change;

import java.util.List;

/**
 * Published (as a Spring application event, on the node's consumer thread) after a batch of
 * changes was applied to this node's index and its searcher refreshed: from this moment the
 * node's search shows them. Node-local listeners (the per-node L1 cache, for example) react to
 * it; it is published once per node, so anything shared that listens must be idempotent.
 * Stale events (older than what the index holds) and unreadable ones are not in it. The
 * indexer ({@code cdc}) publishes it; it lives here so that its listeners need not depend on
 * the indexer. {@code position}: where the node's search stands once these are shown.
 */
public record PostsIndexed(List<Change> changes, IndexPosition position) {

    public PostsIndexed {
        changes = List.copyOf(changes);
    }

    /**
     * One post's change. For a delete only {@code postId} and {@code version} (0 when the event
     * did not carry one, a Kafka tombstone) are meaningful (title null). {@code reindexed}: the
     * searcher this batch was refreshed into shows the document rewritten. It is false when the
     * row changed but the indexed document did not need to (a like or view that keeps the page's
     * popularity bucket), and false for a bucket move too: that is held for the index's next
     * counter write, which announces itself ({@code search.PostIndex#onCountersShown}). Caches of
     * the row still change. {@code countersOnly}:
     * the row changed without a new version (a like, a view flush) or was re-read by a
     * snapshot, so nothing but its counters can differ from a copy of the same version; every
     * change of the counter row ({@code post_counters}, ADR 0080) is one. This is decided in one
     * place, {@code cdc.PostChange#announced}: the parser gives no write time to exactly these.
     * For a counter change the version, title and category are the ones the index holds (the
     * counter row has none); read from the change stream alone they are 0 and null.
     * {@code addedTerms}: for a page this index did not hold before (a create, not an edit), the
     * terms it was indexed with when the indexer knows them; null otherwise. Any search that
     * shares none of them finds exactly what it found before, up to collection statistics (ADR 0099).
     */
    public record Change(long postId, boolean deleted, long version, String title, Long categoryId,
            long likeCount, long viewCount, boolean reindexed, boolean countersOnly, TermHashes addedTerms) {

        /** A change that adds no page of known terms. */
        public Change(long postId, boolean deleted, long version, String title, Long categoryId,
                long likeCount, long viewCount, boolean reindexed, boolean countersOnly) {
            this(postId, deleted, version, title, categoryId, likeCount, viewCount, reindexed, countersOnly, null);
        }
    }
}
