package dev.hanwiki.search;

import dev.hanwiki.search.IndexedDocuments.Indexed;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import org.apache.lucene.index.IndexWriter;

/**
 * Counter changes the index decided on but has not handed to the {@link IndexWriter} yet
 * (ADR 0080, amended). A doc-values update is cheap to make and expensive to make visible:
 * the refresh (and the commit) after it rewrites the updated fields' whole column in every
 * segment it touches, so at a million pages one like per refresh cost a node's indexer thread
 * 0.4 cores (ten refreshes a second, each rewriting four columns of the large segments). Held
 * here, they are written together at a refresh at most every {@code counter-write-interval}
 * (or once {@link #CAP} are held). A commit does not write them: it records them in its user
 * data ({@link #KEY}, like the early counters of {@link PendingCounters}), so the commit that
 * records the offsets of a counter change holds it either way, and an index opened from that
 * commit holds them again.
 * <p>
 * Until written, the writer's decisions read the document as held here ({@link PostIndexWriter});
 * searches rank by the previous counts for up to that interval. Once written, the documents
 * go to the writer's view of unrefreshed writes ({@link IndexedDocuments}): a commit writes them
 * after the refresh that emptied it, and the searcher cannot see them before the next one.
 * Not thread-safe: used under the writer's lock.
 */
final class UnwrittenCounters {

    static final String KEY = "hanwiki.unwrittenCounters";
    /** Held past this many, they are written at the next refresh: the commits' user data stays small. */
    static final int CAP = 10_000;

    private final Map<Long, Indexed> byId = new LinkedHashMap<>();
    /** Whether any are held, for the refresher's look without the lock. */
    private volatile boolean held;

    /**
     * The changes a commit recorded ({@code id:views:likes:version,...}) held again, on top of
     * the documents that commit holds (which have the counters from before them).
     */
    static UnwrittenCounters restore(String encoded, IndexedDocuments documents) {
        UnwrittenCounters held = new UnwrittenCounters();
        if (encoded == null || encoded.isEmpty()) {
            return held;
        }
        for (String entry : encoded.split(",")) {
            String[] p = entry.split(":");
            long id = Long.parseLong(p[0]);
            PostCounters counters = new PostCounters(Long.parseLong(p[1]), Long.parseLong(p[2]), Long.parseLong(p[3]));
            Indexed base = documents.get(id);
            if (base != null) {
                held.put(id, new Indexed(base.version(), counters.bucket(), counters, base.title(), base.categoryId()));
            }
        }
        return held;
    }

    void addTo(Map<String, String> userData) {
        if (byId.isEmpty()) {
            userData.remove(KEY); // never an older commit's, handed back by a caller
            return;
        }
        StringJoiner out = new StringJoiner(",");
        byId.forEach((id, d) -> out.add(id + ":" + d.counters().views() + ":" + d.counters().likes() + ":" + d.counters().version()));
        userData.put(KEY, out.toString());
    }

    /** The document as decided, with counters not written yet, or null. */
    Indexed get(long id) {
        return byId.get(id);
    }

    /** {@code document} carries the decided counters; it replaces what was held for the post. */
    void put(long id, Indexed document) {
        byId.put(id, document);
        held = true;
    }

    /** The document is rewritten (it carries its counters) or deleted: nothing left to write. */
    void remove(long id) {
        byId.remove(id);
        held = !byId.isEmpty();
    }

    int size() {
        return byId.size();
    }

    /** Any held; read by the background refresher without the writer's lock. */
    boolean held() {
        return held;
    }

    /** Hands every held change to the writer as an in-place doc-values update. */
    void writeTo(IndexWriter writer, IndexedDocuments documents) throws IOException {
        for (Map.Entry<Long, Indexed> e : byId.entrySet()) {
            writer.updateDocValues(PostFields.idTerm(e.getKey()), PostFields.counterUpdates(e.getValue().counters()));
            documents.written(e.getKey(), e.getValue());
        }
        byId.clear();
        held = false;
    }
}
