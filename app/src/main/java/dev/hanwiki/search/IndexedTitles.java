package dev.hanwiki.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DocumentStoredFieldVisitor;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.Bits;

/**
 * Titles as this node's index holds them, for features that keep their own view of titles
 * (autocomplete): a scan of every live page, a lookup by id, and prefix candidates from the
 * title-word fields ({@code spell}, {@code chosung}) with the most popular pages first. Reads
 * only the small stored fields, never the body.
 */
public final class IndexedTitles {

    /** One page's title and what its popularity is computed from. */
    public record Title(long id, String title, long version, long viewCount, long likeCount) {
    }

    private static final Set<String> FIELDS = Set.of(PostFields.ID, PostFields.TITLE, PostFields.VERSION);

    private IndexedTitles() {
    }

    /** Live pages in the current searcher (what a scan will visit, give or take concurrent changes). */
    public static int count(PostIndex index) {
        return index.docCounts().numDocs();
    }

    /** Calls {@code each} for every live page of one point-in-time view of the index. */
    public static void forEach(PostIndex index, Consumer<Title> each) {
        IndexSearcher searcher = index.acquire();
        try {
            for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
                Bits live = leaf.reader().getLiveDocs();
                StoredFields stored = leaf.reader().storedFields();
                for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
                    if (live == null || live.get(doc)) {
                        each.accept(read(stored, doc, PostFields.counts(leaf.reader(), doc)));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            index.release(searcher);
        }
    }

    /** The page with this id as the current searcher sees it, or empty if it is not indexed. */
    public static Optional<Title> byId(PostIndex index, long id) {
        IndexSearcher searcher = index.acquire();
        try {
            TopDocs hits = searcher.search(new TermQuery(PostFields.idTerm(id)), 1);
            if (hits.scoreDocs.length == 0) {
                return Optional.empty();
            }
            int doc = hits.scoreDocs[0].doc;
            return Optional.of(read(searcher.storedFields(), doc, PostFields.counts(searcher.getIndexReader(), doc)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            index.release(searcher);
        }
    }

    /**
     * Pages with a title word whose spell term (lower case; Hangul as conjoining jamo, see
     * {@code KoreanAnalysis}) starts with {@code spellPrefix}: up to {@code limit}, most popular first.
     */
    public static List<Title> withWordPrefix(PostIndex index, String spellPrefix, int limit) {
        return prefixed(index, new Term(PostFields.SPELL, spellPrefix), limit);
    }

    /** Pages with a title word (or run of words) whose initial consonants start with {@code chosung}. */
    public static List<Title> withChosungPrefix(PostIndex index, String chosung, int limit) {
        return prefixed(index, new Term(PostFields.CHOSUNG, chosung), limit);
    }

    private static List<Title> prefixed(PostIndex index, Term prefix, int limit) {
        if (prefix.text().isEmpty()) {
            return List.of();
        }
        IndexSearcher searcher = index.acquire();
        try {
            Sort popular = new Sort(new SortField(PostFields.POPULARITY_BUCKET, SortField.Type.LONG, true));
            TopDocs hits = searcher.search(new PrefixQuery(prefix), limit, popular);
            StoredFields stored = searcher.storedFields();
            List<Title> titles = new ArrayList<>(hits.scoreDocs.length);
            for (ScoreDoc hit : hits.scoreDocs) {
                titles.add(read(stored, hit.doc, PostFields.counts(searcher.getIndexReader(), hit.doc)));
            }
            return titles;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            index.release(searcher);
        }
    }

    /** @param counts {views, likes}: doc values, the index keeps no stored counts (ADR 0080) */
    private static Title read(StoredFields stored, int doc, long[] counts) throws IOException {
        DocumentStoredFieldVisitor visitor = new DocumentStoredFieldVisitor(FIELDS);
        stored.document(doc, visitor);
        Document d = visitor.getDocument();
        return new Title(Long.parseLong(d.get(PostFields.ID)), d.get(PostFields.TITLE),
                PostFields.longValue(d, PostFields.VERSION), counts[0], counts[1]);
    }
}
