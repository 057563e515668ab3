package dev.hanwiki.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/** Reads what the index holds per post id: one post's version, or every post's (doc values). */
final class IndexedVersions {

    private IndexedVersions() {
    }

    /** What the index holds of one post: its version, popularity bucket, counters, title and category. */
    record Found(long version, long bucket, PostCounters counters, String title, Long categoryId) {
    }

    /**
     * What the live document with this id holds, or null: doc values only, never stored fields
     * (which would decompress the page). A direct terms lookup per segment (no query, no
     * collector): the indexer runs it once per change, a million times during a rebuild.
     */
    static Found find(IndexReader reader, long id) throws IOException {
        BytesRef key = new BytesRef(Long.toString(id));
        for (LeafReaderContext leaf : reader.leaves()) {
            LeafReader segment = leaf.reader();
            Terms terms = segment.terms(PostFields.ID);
            if (terms == null) {
                continue;
            }
            TermsEnum te = terms.iterator();
            if (!te.seekExact(key)) {
                continue;
            }
            PostingsEnum postings = te.postings(null, PostingsEnum.NONE);
            Bits live = segment.getLiveDocs();
            for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
                if (live == null || live.get(doc)) {
                    return found(segment, doc);
                }
            }
        }
        return null;
    }

    /** Every live document's id and version in id order, from doc values (a second at a million pages). */
    static IndexSnapshot snapshot(IndexReader reader) throws IOException {
        List<DocVersion> docs = new ArrayList<>(reader.numDocs());
        for (LeafReaderContext leaf : reader.leaves()) {
            Bits live = leaf.reader().getLiveDocs();
            NumericDocValues ids = leaf.reader().getNumericDocValues(PostFields.ID);
            NumericDocValues versions = leaf.reader().getNumericDocValues(PostFields.VERSION);
            StoredFields stored = leaf.reader().storedFields();
            for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
                if (live == null || live.get(doc)) {
                    // Documents indexed before ids had doc values fall back to the stored id.
                    long id = ids != null && ids.advanceExact(doc) ? ids.longValue()
                            : Long.parseLong(stored.document(doc, Set.of(PostFields.ID)).get(PostFields.ID));
                    long version = versions != null && versions.advanceExact(doc) ? versions.longValue() : -1;
                    docs.add(new DocVersion(id, version));
                }
            }
        }
        docs.sort(Comparator.comparingLong(DocVersion::id).thenComparingLong(DocVersion::version));
        return new IndexSnapshot(reader.numDocs(), reader.maxDoc(), docs);
    }

    private static Found found(LeafReader segment, int doc) throws IOException {
        PostCounters counters = new PostCounters(PostFields.docValue(segment, PostFields.VIEWS, doc),
                PostFields.docValue(segment, PostFields.LIKES, doc), PostFields.docValue(segment, PostFields.COUNTERS_VERSION, doc));
        BinaryDocValues titles = segment.getBinaryDocValues(PostFields.TITLE_KEY);
        String title = titles != null && titles.advanceExact(doc) ? titles.binaryValue().utf8ToString() : null;
        SortedNumericDocValues categories = segment.getSortedNumericDocValues(PostFields.CATEGORY);
        Long category = categories != null && categories.advanceExact(doc) ? categories.nextValue() : null;
        return new Found(value(segment, PostFields.VERSION, doc), value(segment, PostFields.POPULARITY_BUCKET, doc),
                counters, title, category);
    }

    private static long value(LeafReader reader, String field, int doc) throws IOException {
        NumericDocValues values = reader.getNumericDocValues(field);
        return values != null && values.advanceExact(doc) ? values.longValue() : -1;
    }
}
