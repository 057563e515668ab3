package dev.hanwiki.search;

import dev.hanwiki.lifecycle.ThreadPriority;
import java.io.IOException;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.MergePolicy;

/**
 * Lucene's concurrent merges, each run at a lower CPU priority: merging is background work that
 * must yield the cores to searches when the machine is full (ADR 0093, fourth amendment). Each
 * merge thread lowers itself before its first merge (a merge thread only ever merges).
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
