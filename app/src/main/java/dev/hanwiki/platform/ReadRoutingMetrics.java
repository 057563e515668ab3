package dev.hanwiki.platform;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * {@code hanwiki_replica_reads_enabled} (1 while reads use the replica) and
 * {@code hanwiki_replica_lag_seconds} (the last probe's catch-up time, capped at the bound).
 * Read counts per database are {@code hanwiki_db_reads_total{target}}; pool usage is Boot's
 * {@code hikaricp_connections_*{pool="primary"|"replica"}}.
 */
@Component
class ReadRoutingMetrics implements MeterBinder {

    private final ReplicaMonitor monitor;
    /** Null until a registry binds them (never, in web-layer tests): reads then go uncounted. */
    private volatile Counter replicaReads;
    private volatile Counter primaryReads;

    ReadRoutingMetrics(ReplicaMonitor monitor) {
        this.monitor = monitor;
    }

    void read(boolean onReplica) {
        Counter counter = onReplica ? replicaReads : primaryReads;
        if (counter != null) {
            counter.increment();
        }
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        replicaReads = reads(registry, "replica");
        primaryReads = reads(registry, "primary");
        Gauge.builder("hanwiki.replica.reads.enabled", monitor, m -> m.readsOnReplica() ? 1 : 0)
                .description("1 while reads are served by the replica, 0 while they fall back to the primary")
                .register(registry);
        Gauge.builder("hanwiki.replica.lag", monitor, ReadRoutingMetrics::lagSeconds)
                .baseUnit("seconds")
                .description("Time the replica last needed to apply what the primary had logged")
                .register(registry);
    }

    private static Counter reads(MeterRegistry registry, String target) {
        return Counter.builder("hanwiki.db.reads").tag("target", target)
                .description("Read queries by the database that answered them").register(registry);
    }

    private static double lagSeconds(ReplicaMonitor monitor) {
        Duration lag = monitor.status().lastLag();
        return lag == null ? Double.NaN : lag.toNanos() / 1e9;
    }
}
