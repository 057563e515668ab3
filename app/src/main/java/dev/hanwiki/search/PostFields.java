package dev.hanwiki.search;

import dev.hanwiki.search.analysis.Hangul;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.StringJoiner;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.FeatureField;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.LongField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.Term;

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
 *   <li>{@code features/popularity}: a quantized popularity as a {@link FeatureField}, and its
 *       bucket in doc values so the indexer can tell whether a like changed it;</li>
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
    static final String FEATURES = "features";
    static final String POPULARITY = "popularity";

    /** Body text: positions for phrases, offsets for snippets, stored for display. */
    static final FieldType CONTENT_TYPE = frozen(TextField.TYPE_STORED, IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS, false);
    /** Did-you-mean dictionary: only the terms and their document frequency matter. */
    static final FieldType SPELL_TYPE = frozen(TextField.TYPE_NOT_STORED, IndexOptions.DOCS, true);
    /** Chosung strings: norms kept, so a short title outranks a long one with the same initials. */
    static final FieldType CHOSUNG_TYPE = frozen(TextField.TYPE_NOT_STORED, IndexOptions.DOCS_AND_FREQS, false);

    private PostFields() {
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

    static Document toDocument(PostDocument post) {
        Document doc = new Document();
        doc.add(new StringField(ID, Long.toString(post.id()), Field.Store.YES));
        doc.add(new NumericDocValuesField(ID, post.id()));
        doc.add(new TextField(TITLE, post.title(), Field.Store.YES));
        doc.add(new Field(CONTENT, post.content(), CONTENT_TYPE));
        doc.add(new Field(SPELL, post.title(), SPELL_TYPE));
        String chosung = chosungTokens(post.title());
        if (!chosung.isEmpty()) {
            doc.add(new Field(CHOSUNG, chosung, CHOSUNG_TYPE));
        }
        if (post.categoryId() != null) {
            doc.add(new LongField(CATEGORY, post.categoryId(), Field.Store.YES));
        }
        doc.add(new StoredField(AUTHOR, post.authorId()));
        doc.add(new StoredField(VIEWS, post.viewCount()));
        doc.add(new StoredField(LIKES, post.likeCount()));
        doc.add(new LongField(CREATED, micros(post.createdAt()), Field.Store.YES));
        doc.add(new StoredField(UPDATED, micros(post.updatedAt())));
        doc.add(new StoredField(VERSION, post.version()));
        doc.add(new NumericDocValuesField(VERSION, post.version()));
        int bucket = Popularity.bucket(post.viewCount(), post.likeCount());
        doc.add(new NumericDocValuesField(POPULARITY_BUCKET, bucket));
        doc.add(new FeatureField(FEATURES, POPULARITY, Popularity.featureValue(bucket)));
        return doc;
    }

    static PostDocument fromStored(Document doc) {
        IndexableField category = doc.getField(CATEGORY);
        return new PostDocument(
                Long.parseLong(doc.get(ID)),
                doc.get(TITLE),
                doc.get(CONTENT),
                category == null ? null : category.numericValue().longValue(),
                longValue(doc, AUTHOR),
                longValue(doc, VIEWS),
                longValue(doc, LIKES),
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
