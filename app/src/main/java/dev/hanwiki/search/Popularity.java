package dev.hanwiki.search;

/**
 * Popularity as the ranking sees it: {@code views + 10 * likes} on a log scale, quantized to
 * buckets a factor of 2^(1/3) (about 26%) apart. The index stores the bucket, not the counts,
 * for ranking; a like or a view that leaves the bucket unchanged does not rewrite the document
 * (the indexer compares buckets), so a popular page is not reindexed on every like. Search
 * results still show current counts: they are read from the database with the page of hits.
 */
final class Popularity {

    static final int LIKE_WEIGHT = 10;
    static final int BUCKETS_PER_DOUBLING = 3;

    private Popularity() {
    }

    static int bucket(long views, long likes) {
        double score = Math.max(0, views) + (double) LIKE_WEIGHT * Math.max(0, likes);
        return (int) Math.floor(BUCKETS_PER_DOUBLING * log2(1 + score));
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }
}
