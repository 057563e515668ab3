package dev.hanwiki.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;

/**
 * What the index holds of a post as the writer must see it: the current searcher's document,
 * overlaid by what was written since the last blocking refresh (which the searcher cannot see
 * yet). Used by {@link PostIndexWriter} under its write lock only.
 */
final class IndexedDocuments {

    /** A document as indexed: version, popularity bucket, counters, title and category. */
    record Indexed(long version, long bucket, PostCounters counters, String title, Long categoryId) {
    }

    /** Marks an id deleted since the last blocking refresh (the searcher still shows the old document). */
    private static final Indexed DELETED = new Indexed(-1, -1, PostCounters.NONE, null, null);

    private final SearcherManager searchers;
    private final Map<Long, Indexed> unrefreshed = new HashMap<>();

    IndexedDocuments(SearcherManager searchers) {
        this.searchers = searchers;
    }

    /** The live document with this id, or null. */
    Indexed get(long id) {
        Indexed written = unrefreshed.get(id);
        if (written != null) {
            return written == DELETED ? null : written;
        }
        IndexSearcher searcher;
        try {
            searcher = searchers.acquire();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            IndexedVersions.Found found = IndexedVersions.find(searcher.getIndexReader(), id);
            return found == null ? null
                    : new Indexed(found.version(), found.bucket(), found.counters(), found.title(), found.categoryId());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            try {
                searchers.release(searcher);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    void written(long id, Indexed document) {
        unrefreshed.put(id, document);
    }

    void deleted(long id) {
        unrefreshed.put(id, DELETED);
    }

    /** After a blocking refresh: the searcher shows every write. */
    void refreshed() {
        unrefreshed.clear();
    }
}
