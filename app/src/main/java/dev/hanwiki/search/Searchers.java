package dev.hanwiki.search;

import org.apache.lucene.search.IndexSearcher;

/**
 * Where searches get a point-in-time view of the index. Callers must release what they
 * acquire, in {@code finally}. {@link PostIndex} is the node's; the benchmark opens an existing
 * index read-only through the same interface, so it runs the very same search path.
 */
interface Searchers {

    IndexSearcher acquire();

    void release(IndexSearcher searcher);
}
