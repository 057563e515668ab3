package dev.hanwiki.cache;

import dev.hanwiki.cdc.PostsIndexed;
import java.util.List;

/**
 * What a feature drops from L2 when posts change. Called by {@link SharedInvalidator} once per
 * batch of changes for the whole cluster (not once per node), with the changes that are more
 * than a counter update (creations, edits, moves, deletions); must be quick and must not throw.
 */
public interface SharedEvictions {

    void evictShared(List<PostsIndexed.Change> changes);
}
