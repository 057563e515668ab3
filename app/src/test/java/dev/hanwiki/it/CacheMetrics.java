package dev.hanwiki.it;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
        Http.Response r = Http.get(Stack.management(n) + "/actuator/prometheus");
        if (r.status() != 200) {
            throw new AssertionError("metrics of node" + n + ": " + r.status());
        }
        Pattern line = Pattern.compile("^" + metric + "\\{([^}]*)} (\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(r.body());
        double total = 0;
        boolean found = false;
        while (m.find()) {
            String labels = m.group(1);
            if (labels.contains("region=\"" + region + "\"") && labels.contains(label)) {
                total += Double.parseDouble(m.group(2));
                found = true;
            }
        }
        if (!found) {
            throw new AssertionError(metric + " for region " + region + " (" + label + ") not exposed by node" + n);
        }
        return total;
    }
}
