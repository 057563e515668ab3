package dev.hanwiki.cache;

import dev.hanwiki.change.PostsIndexed;
import java.util.List;

/**
 * What a feature drops from L2 when posts change. Called by {@link SharedInvalidator} once per
 * batch of changes for the whole cluster (not once per node), with the changes that are more
 * than a counter update (creations, edits, moves, deletions); must not throw. Waiting for
 * Redis (within the shards' time budget) is fine: it runs on the invalidator's own thread.
 */
public interface SharedEvictions {

    /**
     * @return true when every key was dropped or found absent; false when a shard could not be
     *         asked, so the invalidator retries the batch instead of committing past it
     */
    boolean evictShared(List<PostsIndexed.Change> changes);
}
