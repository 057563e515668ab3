package dev.hanwiki.platform;

/**
 * The pools are never the queue (ADR 0093): every request the limiter can admit at once gets a
 * connection without waiting, with connections to spare for background work, and the backlog
 * fits in the server's threads. Checked at start-up: a configuration that breaks it does not start.
 */
final class OverloadSizing {

    private OverloadSizing() {
    }

    /**
     * The most requests the limiter can have in flight: the limit at its maximum, plus what
     * each partition is guaranteed once the limit is reached (the partitioned limiter admits a
     * partition under its guarantee even when others already filled the limit).
     */
    static int worstCaseInflight(OverloadSettings s) {
        int max = s.maxLimit();
        return max + guaranteed(max, s.readShare()) + guaranteed(max, s.writeShare()) + guaranteed(max, s.internalShare());
    }

    private static int guaranteed(int limit, double share) {
        // The library's rounding: up, and at least one.
        return (int) Math.max(1, Math.ceil(limit * share));
    }

    /** @throws IllegalStateException naming the setting to change */
    static void check(OverloadSettings overload, DataSourceSettings pools, int serverThreads) {
        int needed = worstCaseInflight(overload) + overload.reservedConnections();
        for (var pool : java.util.Map.of("primary", pools.primary(), "replica", pools.replica()).entrySet()) {
            if (pool.getValue().maximumPoolSize() < needed) {
                throw new IllegalStateException("hanwiki.datasource." + pool.getKey() + ".maximum-pool-size="
                        + pool.getValue().maximumPoolSize() + " is below what the overload limiter can admit at once ("
                        + worstCaseInflight(overload) + " requests, hanwiki.overload.max-limit=" + overload.maxLimit()
                        + " with its partitions) plus hanwiki.overload.reserved-connections=" + overload.reservedConnections()
                        + ": the pool would become the queue. Raise the pool to " + needed + " or lower the limit.");
            }
        }
        int threads = worstCaseInflight(overload) + overload.backlogSize();
        if (threads >= serverThreads) {
            throw new IllegalStateException("hanwiki.overload.backlog-size=" + overload.backlogSize()
                    + " plus the requests in flight (" + worstCaseInflight(overload) + ") need " + threads
                    + " server threads, server.tomcat.threads.max is " + serverThreads
                    + ": shed requests would wait for a thread. Lower the backlog.");
        }
    }
}
