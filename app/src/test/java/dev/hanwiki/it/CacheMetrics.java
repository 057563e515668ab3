package dev.hanwiki.it;

import java.util.List;

/** Reads the cache counters a node exposes on /actuator/prometheus. */
final class CacheMetrics {

    private CacheMetrics() {
    }

    /** Reads of {@code region} answered by {@code tier} (l1, l2, origin) on node {@code n}. */
    static double gets(int n, String region, String tier) {
        return sum(n, "hanwiki_cache_gets_total", region, "tier=\"" + tier + "\"");
    }

    /** Entries of {@code region} dropped from L1 by the change stream on node {@code n}. */
    static double l1Evictions(int n, String region) {
        return sum(n, "hanwiki_cache_evictions_total", region, "tier=\"l1\"");
    }

    /** Origin answers of {@code region} served but not cached (older than the stream said) on node {@code n}. */
    static double uncached(int n, String region) {
        return sum(n, "hanwiki_cache_uncached_total", region, "");
    }

    private static double sum(int n, String metric, String region, String label) {
        Http.Response r = NodeMetrics.scrape(n);
        if (r.status() != 200) {
            throw new AssertionError("metrics of node" + n + ": " + r.status());
        }
        List<Double> values = NodeMetrics.values(r.body(), metric, "region=\"" + region + "\"", label);
        if (values.isEmpty()) {
            throw new AssertionError(metric + " for region " + region + " (" + label + ") not exposed by node" + n);
        }
        return values.stream().mapToDouble(Double::doubleValue).sum();
    }
}
