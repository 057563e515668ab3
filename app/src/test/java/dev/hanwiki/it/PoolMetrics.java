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
        String body = Http.get(Stack.management(node) + "/actuator/prometheus").body();
        for (String line : body.split("\n")) {
            if (line.startsWith(name + "{") && line.contains("pool=\"" + pool + "\"")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return -1;
    }
}
