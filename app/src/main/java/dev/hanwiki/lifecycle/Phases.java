package dev.hanwiki.lifecycle;

import org.springframework.context.SmartLifecycle;

/**
 * The start/stop order of background work, in one place. Spring starts lifecycles in rising
 * phase order and stops them in falling order; the web server starts at
 * {@code DEFAULT_PHASE - 2048} and drains in-flight requests at {@code DEFAULT_PHASE - 1024}.
 * Beans that own an {@code AutoCloseable} resource (the index, the Redis clients of the cache
 * shards) are closed after every phase has stopped.
 */
public final class Phases {

    /**
     * Consumers of the change stream: started last (when the web server listens), stopped first,
     * so no change is applied while the node drains, and the index commits what they applied.
     */
    public static final int CHANGE_CONSUMERS = SmartLifecycle.DEFAULT_PHASE;

    /**
     * Clients and workers requests need (Redis stores, view flushes, replica probes, pollers,
     * writers): started before the web server listens, stopped after it has drained.
     */
    public static final int SERVING = 0;

    /** The index's own housekeeping (refreshes): stopped after everything that writes or reads it. */
    public static final int INDEX = -100;

    private Phases() {
    }
}
