package dev.hanwiki.search;

import dev.hanwiki.lifecycle.ThreadPriority;
import java.io.IOException;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.MergePolicy;

/**
 * Lucene's concurrent merges, each run at a lower CPU priority: merging is background work that
 * must yield the cores to searches when the machine is full (ADR 0093, fourth amendment). The
 * thread lowers itself before each merge it runs (a merge thread only ever merges, so nothing
 * else runs lowered; a second call for the same thread sets the same value again).
 */
final class LowPriorityMerges extends ConcurrentMergeScheduler {

    private final int niceness;

    LowPriorityMerges(int niceness) {
        this.niceness = niceness;
    }

    @Override
    protected void doMerge(MergeSource mergeSource, MergePolicy.OneMerge merge) throws IOException {
        ThreadPriority.lowerCurrentThread(niceness);
        super.doMerge(mergeSource, merge);
    }
}
