package dev.hanwiki.search;

/**
 * Popularity as the ranking sees it: {@code views + 10 * likes} on a log scale, quantized to
 * buckets a factor of 2^(1/3) (about 26%) apart. The index stores the bucket, not the counts,
 * for ranking; a like or a view that leaves the bucket unchanged does not rewrite the document
 * (the indexer compares buckets), so a popular page is not reindexed on every like. Search
 * results still show current counts: they are read from the database with the page of hits.
 */
public final class Popularity {

    static final int LIKE_WEIGHT = 10;
    static final int BUCKETS_PER_DOUBLING = 3;

    private Popularity() {
    }

    /**
     * {@code views + 10 * likes}, unquantized: what the buckets are taken of, and what
     * autocomplete ranks titles by (one definition for both).
     */
    public static double score(long views, long likes) {
        return Math.max(0, views) + (double) LIKE_WEIGHT * Math.max(0, likes);
    }

    static int bucket(long views, long likes) {
        return (int) Math.floor(BUCKETS_PER_DOUBLING * log2(1 + score(views, likes)));
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }
}
