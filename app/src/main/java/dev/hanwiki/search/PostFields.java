package dev.hanwiki.search;

import dev.hanwiki.search.analysis.Hangul;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.StringJoiner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.LongField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.Term;
import org.apache.lucene.util.BytesRef;

/**
 * The index schema: field names and the mapping between {@link PostDocument} and Lucene
 * documents. Timestamps are epoch microseconds, the precision of the DATETIME(6) columns.
 * <ul>
 *   <li>{@code title}, {@code content}: Nori-analyzed text, stored; the body also indexes
 *       offsets so snippets are cut from the postings, never by re-analysing the page;</li>
 *   <li>{@code spell}: title words as jamo (did-you-mean dictionary); {@code chosung}: title
 *       words' initial consonants (ㄷㅎㅁㄱ finds 대한민국);</li>
 *   <li>{@code id}: a term (updates by id), doc values (listing every id and version fast);</li>
 *   <li>{@code categoryId}, {@code createdAt}: points and doc values (filter, facets, recency);</li>
 *   <li>{@code popularityBucket}, {@code viewCount}, {@code likeCount}, {@code countersVersion}:
 *       the quantized popularity the ranking reads ({@link PopularityQuery}) and the counts and
 *       counter-row version it comes from, all doc values ONLY, so that a counter change is an
 *       in-place doc-values update ({@link #counterUpdates}) that never re-analyses the page
 *       (ADR 0080);</li>
 *   <li>{@code titleKey}: the title in binary doc values, so a counter change can announce the
 *       page's title without reading (and decompressing) its stored body;</li>
 *   <li>everything else is stored only, for reading hits back.</li>
 * </ul>
 */
final class PostFields {

    static final String ID = "id";
    static final String TITLE = "title";
    static final String CONTENT = "content";
    static final String SPELL = "spell";
    static final String CHOSUNG = "chosung";
    static final String CATEGORY = "categoryId";
    static final String AUTHOR = "authorId";
    static final String VIEWS = "viewCount";
    static final String LIKES = "likeCount";
    static final String CREATED = "createdAt";
    static final String UPDATED = "updatedAt";
    static final String VERSION = "version";
    static final String POPULARITY_BUCKET = "popularityBucket";
    static final String COUNTERS_VERSION = "countersVersion";
    static final String TITLE_KEY = "titleKey";

    /** Body text: positions for phrases, offsets for snippets, stored for display. */
    static final FieldType CONTENT_TYPE = frozen(TextField.TYPE_STORED, IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS, false);
    /** Did-you-mean dictionary: only the terms and their document frequency matter. */
    static final FieldType SPELL_TYPE = frozen(TextField.TYPE_NOT_STORED, IndexOptions.DOCS, true);
    /** Chosung strings: norms kept, so a short title outranks a long one with the same initials. */
    static final FieldType CHOSUNG_TYPE = frozen(TextField.TYPE_NOT_STORED, IndexOptions.DOCS_AND_FREQS, false);

    /** The types of the stored text fields without storing: their tokens come analysed (ADR 0097). */
    private static final FieldType TITLE_TOKENS = tokensOnly(TextField.TYPE_STORED);
    private static final FieldType CONTENT_TOKENS = tokensOnly(CONTENT_TYPE);

    /**
     * A field the IndexWriter analyses: its name, its text, its type, and the same type without
     * storing, for the field that carries the text's tokens analysed beforehand (ADR 0097).
     */
    record AnalyzedField(String name, String text, FieldType type, FieldType tokensType) {
    }

    private PostFields() {
    }

    private static FieldType tokensOnly(FieldType stored) {
        FieldType type = new FieldType(stored);
        type.setStored(false);
        type.freeze();
        return type;
    }

    /**
     * The analysed fields of {@code post}'s document in document order: every field whose text
     * the IndexWriter runs through the analyzer (chosung only when the title has Hangul).
     */
    static List<AnalyzedField> analyzedFields(PostDocument post) {
        List<AnalyzedField> fields = new ArrayList<>(4);
        fields.add(new AnalyzedField(TITLE, post.title(), TextField.TYPE_STORED, TITLE_TOKENS));
        fields.add(new AnalyzedField(CONTENT, post.content(), CONTENT_TYPE, CONTENT_TOKENS));
        fields.add(new AnalyzedField(SPELL, post.title(), SPELL_TYPE, SPELL_TYPE));
        String chosung = chosungTokens(post.title());
        if (!chosung.isEmpty()) {
            fields.add(new AnalyzedField(CHOSUNG, chosung, CHOSUNG_TYPE, CHOSUNG_TYPE));
        }
        return fields;
    }

    private static FieldType frozen(FieldType base, IndexOptions options, boolean omitNorms) {
        FieldType type = new FieldType(base);
        type.setIndexOptions(options);
        type.setOmitNorms(omitNorms);
        type.freeze();
        return type;
    }

    static Term idTerm(long id) {
        return new Term(ID, Long.toString(id));
    }

    /** A document whose counters are the ones {@code post} carries, as counter version 0 (tools, tests). */
    static Document toDocument(PostDocument post) {
        return toDocument(post, new PostCounters(post.viewCount(), post.likeCount(), 0));
    }

    /** The document of {@code post} ranked by {@code counters} (what the index decided, not the page row's). */
    static Document toDocument(PostDocument post, PostCounters counters) {
        return toDocument(post, counters, null);
    }

    /**
     * The document of {@code post} ranked by {@code counters}, its text fields indexed from
     * {@code analyzed} (ADR 0097): each analysed field becomes an indexed-only field over the
     * captured tokens and, if it is stored, a stored-only field of the same name with the text,
     * at the place the one field had (Lucene merges the two into one field; stored fields keep
     * their order). Null {@code analyzed}: text fields the IndexWriter analyses itself.
     */
    static Document toDocument(PostDocument post, PostCounters counters, PreAnalyzedPost analyzed) {
        Document doc = new Document();
        doc.add(new StringField(ID, Long.toString(post.id()), Field.Store.YES));
        doc.add(new NumericDocValuesField(ID, post.id()));
        List<AnalyzedField> fields = analyzed == null ? analyzedFields(post) : analyzed.fields();
        for (int i = 0; i < fields.size(); i++) {
            AnalyzedField field = fields.get(i);
            if (analyzed == null) {
                doc.add(new Field(field.name(), field.text(), field.type()));
            } else {
                doc.add(new Field(field.name(), analyzed.tokens(i).replay(), field.tokensType()));
                if (field.type().stored()) {
                    doc.add(new StoredField(field.name(), field.text()));
                }
            }
        }
        if (post.categoryId() != null) {
            doc.add(new LongField(CATEGORY, post.categoryId(), Field.Store.YES));
        }
        doc.add(new StoredField(AUTHOR, post.authorId()));
        doc.add(new BinaryDocValuesField(TITLE_KEY, new BytesRef(post.title())));
        doc.add(new LongField(CREATED, micros(post.createdAt()), Field.Store.YES));
        doc.add(new StoredField(UPDATED, micros(post.updatedAt())));
        doc.add(new StoredField(VERSION, post.version()));
        doc.add(new NumericDocValuesField(VERSION, post.version()));
        for (Field field : counterUpdates(counters)) {
            doc.add(field);
        }
        return doc;
    }

    /** The doc-values-only fields a counter change rewrites in place ({@code IndexWriter.updateDocValues}). */
    static Field[] counterUpdates(PostCounters counters) {
        return new Field[] {
                new NumericDocValuesField(POPULARITY_BUCKET, counters.bucket()),
                new NumericDocValuesField(VIEWS, counters.views()),
                new NumericDocValuesField(LIKES, counters.likes()),
                new NumericDocValuesField(COUNTERS_VERSION, counters.version())};
    }

    /** {views, likes} of a document from its doc values ({@code doc} within {@code reader}, a segment). */
    static long[] counts(LeafReader reader, int doc) throws IOException {
        return new long[] {docValue(reader, VIEWS, doc), docValue(reader, LIKES, doc)};
    }

    /** {views, likes} of a top-level document id of {@code reader}. */
    static long[] counts(IndexReader reader, int doc) throws IOException {
        List<LeafReaderContext> leaves = reader.leaves();
        LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
        return counts(leaf.reader(), doc - leaf.docBase);
    }

    static long docValue(LeafReader reader, String field, int doc) throws IOException {
        NumericDocValues values = reader.getNumericDocValues(field);
        return values != null && values.advanceExact(doc) ? values.longValue() : 0;
    }

    /** @param counts {views, likes} from {@link #counts} (the index holds counts in doc values only) */
    static PostDocument fromStored(Document doc, long[] counts) {
        IndexableField category = doc.getField(CATEGORY);
        return new PostDocument(
                Long.parseLong(doc.get(ID)),
                doc.get(TITLE),
                doc.get(CONTENT),
                category == null ? null : category.numericValue().longValue(),
                longValue(doc, AUTHOR),
                counts[0],
                counts[1],
                instant(longValue(doc, CREATED)),
                instant(longValue(doc, UPDATED)),
                longValue(doc, VERSION));
    }

    static long longValue(Document doc, String field) {
        return doc.getField(field).numericValue().longValue();
    }

    /**
     * Chosung of each title word that has Hangul in it (words split at anything but letters
     * and digits), then of all those words run together: 대한민국 헌법 gives
     * {@code ㄷㅎㅁㄱ ㅎㅂ ㄷㅎㅁㄱㅎㅂ}.
     */
    static String chosungTokens(String title) {
        StringJoiner tokens = new StringJoiner(" ");
        StringBuilder whole = new StringBuilder();
        int words = 0;
        for (String word : title.split("[^\\p{L}\\p{N}]+")) {
            if (hasSyllable(word)) {
                String initials = Hangul.chosung(word);
                tokens.add(initials);
                whole.append(initials);
                words++;
            }
        }
        if (words > 1) {
            tokens.add(whole);
        }
        return tokens.toString();
    }

    private static boolean hasSyllable(String word) {
        for (int i = 0; i < word.length(); i++) {
            if (Hangul.isSyllable(word.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    static long micros(Instant instant) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
    }

    static Instant instant(long micros) {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }
}
