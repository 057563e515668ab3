package dev.hanwiki.search;

import dev.hanwiki.change.TermHashes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.lucene.analysis.Analyzer;

/**
 * A post with the tokens of every field the IndexWriter would analyse, analysed beforehand by
 * the writer's own analyzer ({@link PostIndexWriter#analyze}), so that the indexer thread only
 * applies them (ADR 0097). Immutable once made: made on one thread, used on another. A change
 * that turns out stale or unchanged simply drops it.
 */
public final class PreAnalyzedPost {

    private final PostDocument post;
    private final List<PostFields.AnalyzedField> fields;
    private final List<CapturedTokens> tokens;

    private PreAnalyzedPost(PostDocument post, List<PostFields.AnalyzedField> fields, List<CapturedTokens> tokens) {
        this.post = post;
        this.fields = fields;
        this.tokens = tokens;
    }

    /**
     * Runs {@code analyzer} over each analysed field of {@code post} as the IndexWriter would
     * ({@code analyzer.tokenStream(field, text)}, the per-field analyzer current at this moment)
     * and keeps the tokens. Any thread; analysis failures are thrown here.
     */
    static PreAnalyzedPost analyze(PostDocument post, Analyzer analyzer) {
        List<PostFields.AnalyzedField> fields = PostFields.analyzedFields(post);
        List<CapturedTokens> tokens = new ArrayList<>(fields.size());
        for (PostFields.AnalyzedField field : fields) {
            tokens.add(CapturedTokens.capture(analyzer, field.name(), field.text()));
        }
        return new PreAnalyzedPost(post, List.copyOf(fields), List.copyOf(tokens));
    }

    /** {@code analyzed}, checked to be the tokens of {@code post} (handed over by another thread). */
    static PreAnalyzedPost handedOver(PostDocument post, PreAnalyzedPost analyzed) {
        if (analyzed == null || !analyzed.post().equals(post)) {
            throw new IllegalArgumentException("the tokens handed over for post " + post.id() + " v" + post.version()
                    + " are " + (analyzed == null ? "missing" : "of post " + analyzed.post().id() + " v" + analyzed.post().version()));
        }
        return analyzed;
    }

    /** The post these tokens are of. */
    public PostDocument post() {
        return post;
    }

    /** The analysed fields, in document order (as {@link PostFields#analyzedFields}). */
    List<PostFields.AnalyzedField> fields() {
        return fields;
    }

    /**
     * The hashes of every term this page is indexed with in its analysed fields
     * ({@link SearchTerms#hash}): what a search must share with it to find it (ADR 0099).
     */
    public TermHashes termHashes() {
        LongStream.Builder hashes = LongStream.builder();
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.get(i).name();
            tokens.get(i).forEachTerm(term -> hashes.add(SearchTerms.hash(name, term)));
        }
        return TermHashes.of(hashes.build().toArray());
    }

    /** The tokens of {@code fields().get(i)}. */
    CapturedTokens tokens(int i) {
        return tokens.get(i);
    }
}
