package dev.hanwiki;

/**
 * The one percentile definition of every bench (issue 18): nearest rank. The p-th percentile
 * of n values is the ceil(p / 100 * n)-th smallest (1-based), never interpolated: with 10
 * values p50 is the 5th and p99 the 10th. infra/bench/stats.py is the same for the Python
 * benches.
 */
public final class Percentiles {

    private Percentiles() {
    }

    /** @param sorted values in ascending order, at least one; @param p in (0, 100] */
    public static long nearestRank(long[] sorted, double p) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        int rank = (int) Math.max(1, Math.ceil(p / 100 * sorted.length));
        return sorted[Math.min(sorted.length, rank) - 1];
    }
}
