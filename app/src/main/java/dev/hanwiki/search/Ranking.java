package dev.hanwiki.search;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.apache.lucene.document.LongField;
import org.apache.lucene.search.Query;

/**
 * How results are ordered: BM25 over the title (boosted) and the body, plus two bounded
 * boosts that Lucene can reason about while collecting the top hits (both expose maximum
 * scores per block, so documents that cannot enter the top k are skipped, never scored):
 * <ul>
 *   <li>popularity: {@code w * (1 + b) / (1 + b + pivot)} over the quantized popularity bucket b
 *       in doc values ({@link PopularityQuery}: updatable in place by a counter change, ADR 0080);</li>
 *   <li>recency: {@code w * pivot / (pivot + |createdAt - now|)}
 *       ({@link LongField#newDistanceFeatureQuery}).</li>
 * </ul>
 * The weights keep text first: a boost is worth at most {@link #POPULARITY_WEIGHT} +
 * {@link #RECENCY_WEIGHT} points, less than a title match adds, so the boosts order pages that
 * match about equally well. They were chosen on the judged relevance set (RelevanceTest,
 * docs/adr/0021-ranking-and-query-language.md).
 */
final class Ranking {

    static final float TITLE_BOOST = 2.5f;
    /** Alternatives from the synonyms file count a little less than the word typed. */
    static final float SYNONYM_BOOST = 0.5f;
    static final float POPULARITY_WEIGHT = 2.5f;
    /** Bucket 24 is about 250 views (or 25 likes): half of the popularity boost. */
    static final float POPULARITY_PIVOT = 24f;
    static final float RECENCY_WEIGHT = 0.6f;
    static final Duration RECENCY_PIVOT = Duration.ofDays(365);

    private Ranking() {
    }

    static Query popularity() {
        return new PopularityQuery(PostFields.POPULARITY_BUCKET, POPULARITY_WEIGHT, POPULARITY_PIVOT);
    }

    /** @param now truncated to the hour by callers, so the query is the same for an hour (cacheable, stable pages) */
    static Query recency(Instant now) {
        return LongField.newDistanceFeatureQuery(PostFields.CREATED, RECENCY_WEIGHT,
                PostFields.micros(now.truncatedTo(ChronoUnit.HOURS)), RECENCY_PIVOT.toNanos() / 1000);
    }
}
