package dev.hanwiki.search;

import java.io.IOException;
import java.util.Objects;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Weight;

/**
 * The popularity boost read from the {@code popularityBucket} doc values:
 * {@code weight * (1 + b) / (1 + b + pivot)}, the saturation function {@code FeatureField} used
 * (ADR 0022) over the same value. Doc values, unlike a FeatureField's postings, can be rewritten
 * in place ({@code IndexWriter.updateDocValues}), so a like or a view flush changes a page's rank
 * without re-indexing (and re-analysing) its text (ADR 0080).
 * <p>
 * Top-k collection still skips: the scorer reports {@code weight} as its maximum score (the
 * saturation never reaches it), so Lucene's block-max / MaxScore logic treats this clause as
 * non-essential once the text clauses alone decide what can still enter the top k. The bound
 * is per index rather than per block (a FeatureField's impacts were per block); ranking is
 * unchanged, only fewer blocks can be skipped on popularity alone.
 */
final class PopularityQuery extends Query {

    private final String field;
    private final float weight;
    private final float pivot;

    PopularityQuery(String field, float weight, float pivot) {
        if (!(weight > 0) || !(pivot > 0)) {
            throw new IllegalArgumentException("weight and pivot must be positive");
        }
        this.field = Objects.requireNonNull(field);
        this.weight = weight;
        this.pivot = pivot;
    }

    /** The score of bucket {@code b} at {@code weight} (exposed for tests). */
    static float score(float weight, float pivot, long bucket) {
        float value = 1 + Math.max(0, bucket);
        return weight * value / (value + pivot);
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
        float w = weight * boost;
        return new Weight(this) {
            @Override
            public ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException {
                NumericDocValues values = context.reader().getNumericDocValues(field);
                if (values == null) {
                    return null;
                }
                Scorer scorer = new Scorer() {
                    @Override
                    public int docID() {
                        return values.docID();
                    }

                    @Override
                    public DocIdSetIterator iterator() {
                        return values;
                    }

                    @Override
                    public float getMaxScore(int upTo) {
                        return w;
                    }

                    @Override
                    public float score() throws IOException {
                        return PopularityQuery.score(w, pivot, values.longValue());
                    }
                };
                return new DefaultScorerSupplier(scorer);
            }

            @Override
            public Explanation explain(LeafReaderContext context, int doc) throws IOException {
                NumericDocValues values = context.reader().getNumericDocValues(field);
                if (values == null || !values.advanceExact(doc)) {
                    return Explanation.noMatch("no " + field);
                }
                long bucket = values.longValue();
                return Explanation.match(PopularityQuery.score(w, pivot, bucket),
                        "popularity " + w + " * (1 + b) / (1 + b + " + pivot + "), b = " + field + " = " + bucket);
            }

            @Override
            public boolean isCacheable(LeafReaderContext context) {
                // False once the segment has doc-values updates: its values changed since it was written.
                return DocValues.isCacheable(context, field);
            }
        };
    }

    @Override
    public void visit(QueryVisitor visitor) {
        if (visitor.acceptField(field)) {
            visitor.visitLeaf(this);
        }
    }

    @Override
    public String toString(String defaultField) {
        return "popularity(" + field + ", w=" + weight + ", pivot=" + pivot + ")";
    }

    @Override
    public boolean equals(Object other) {
        return sameClassAs(other) && field.equals(((PopularityQuery) other).field)
                && weight == ((PopularityQuery) other).weight && pivot == ((PopularityQuery) other).pivot;
    }

    @Override
    public int hashCode() {
        return Objects.hash(classHash(), field, weight, pivot);
    }
}
