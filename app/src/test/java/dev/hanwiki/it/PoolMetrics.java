package dev.hanwiki.it;

/** Hikari's own gauges, as node {@code n} publishes them on /actuator/prometheus. */
final class PoolMetrics {

    private PoolMetrics() {
    }

    /** Connections of pool {@code pool} ("primary" or "replica") in use right now; -1 if not published. */
    static double active(int node, String pool) {
        return gauge(node, "hikaricp_connections_active", pool);
    }

    static double gauge(int node, String name, String pool) {
        return NodeMetrics.values(NodeMetrics.scrape(node).body(), name, "pool=\"" + pool + "\"").stream()
                .findFirst().orElse(-1.0);
    }
}
