package dev.hanwiki.search;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.Term;

/**
 * The index schema: field names and the mapping between {@link PostDocument} and Lucene
 * documents. Numbers are {@link LongField}s (points for filters, doc values for future
 * ranking and sorting, stored for reading back). Timestamps are epoch microseconds, the
 * precision of the DATETIME(6) columns.
 */
final class PostFields {

    static final String ID = "id";
    static final String TITLE = "title";
    static final String CONTENT = "content";
    static final String CATEGORY = "categoryId";
    static final String AUTHOR = "authorId";
    static final String VIEWS = "viewCount";
    static final String LIKES = "likeCount";
    static final String CREATED = "createdAt";
    static final String UPDATED = "updatedAt";
    static final String VERSION = "version";

    private PostFields() {
    }

    static Term idTerm(long id) {
        return new Term(ID, Long.toString(id));
    }

    static Document toDocument(PostDocument post) {
        Document doc = new Document();
        doc.add(new StringField(ID, Long.toString(post.id()), Field.Store.YES));
        doc.add(new TextField(TITLE, post.title(), Field.Store.YES));
        // Content is stored only to cut snippets; highlighting will replace this later.
        doc.add(new TextField(CONTENT, post.content(), Field.Store.YES));
        if (post.categoryId() != null) {
            doc.add(new LongField(CATEGORY, post.categoryId(), Field.Store.YES));
        }
        doc.add(new LongField(AUTHOR, post.authorId(), Field.Store.YES));
        doc.add(new LongField(VIEWS, post.viewCount(), Field.Store.YES));
        doc.add(new LongField(LIKES, post.likeCount(), Field.Store.YES));
        doc.add(new LongField(CREATED, micros(post.createdAt()), Field.Store.YES));
        doc.add(new LongField(UPDATED, micros(post.updatedAt()), Field.Store.YES));
        doc.add(new LongField(VERSION, post.version(), Field.Store.YES));
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

    private static long micros(Instant instant) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
    }

    private static Instant instant(long micros) {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }
}
