package dev.hanwiki.cdc;

import java.util.List;

/**
 * Published (as a Spring application event, on the node's consumer thread) after a batch of
 * changes was applied to this node's index and its searcher refreshed: from this moment the
 * node's search shows them. Node-local listeners (the per-node L1 cache, for example) react to
 * it; it is published once per node, so anything shared that listens must be idempotent.
 * Stale events (older than what the index holds) and unreadable ones are not in it.
 */
public record PostsIndexed(List<Change> changes) {

    public PostsIndexed {
        changes = List.copyOf(changes);
    }

    /**
     * One post's change. For a delete only {@code postId} and {@code version} (0 when the event
     * did not carry one, a Kafka tombstone) are meaningful (title null). {@code reindexed} is
     * false when the row changed but the indexed document did not need to (a like or view that
     * keeps the page's popularity bucket): caches of the row still change. {@code countersOnly}:
     * the row changed without a new version (a like, a view flush) or was re-read by a
     * snapshot, so nothing but its counters can differ from a copy of the same version; every
     * change of the counter row ({@code post_counters}, ADR 0080) is one. This is the one place
     * that decides it: the parser gives no write time to exactly these. For a counter change
     * the version, title and category are the ones the index holds (the counter row has none);
     * from {@link ChangeStream#read} they are 0 and null (see {@code PostChangeApplier}).
     */
    public record Change(long postId, boolean deleted, long version, String title, Long categoryId,
            long likeCount, long viewCount, boolean reindexed, boolean countersOnly) {

        static Change of(PostChange change, boolean reindexed) {
            return switch (change) {
                case PostChange.Counters c -> new Change(c.postId(), false, 0, null, null, c.counters().likes(),
                        c.counters().views(), reindexed, true);
                case PostChange.Ignored i -> new Change(i.postId(), false, 0, null, null, 0, 0, false, true);
                case PostChange.Upsert u -> new Change(u.post().id(), false, u.post().version(), u.post().title(),
                        u.post().categoryId(), u.post().likeCount(), u.post().viewCount(), reindexed,
                        u.changedAtMillis().isEmpty());
                case PostChange.Delete d -> new Change(d.postId(), true, d.version().orElse(0), null, null, 0, 0, reindexed, false);
            };
        }
    }
}
