package dev.hanwiki.platform;

import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Decides whether reads may use the replica. A probe thread measures, every
 * {@code probe-interval}, how long the replica takes to apply everything the primary has
 * logged at that moment (a GTID wait bounded by {@code max-replica-lag}): that is the
 * staleness a reader would see, with no privilege beyond SELECT. Reads leave the replica when
 * it is unreachable or lags beyond the bound, and come back at the first good probe. A failed
 * read reports the replica unreachable at once, without waiting for the next probe.
 *
 * <p>The replica pool's socket timeout is short (a request's read of a replica whose host hangs
 * or was cut off fails over to the primary within it). The probe's wait is long by design (up
 * to {@code max-replica-lag}), so the probe widens its own connection's network timeout for
 * that one call; the pool restores the connection's timeout when it is returned.
 */
@Component
public class ReplicaMonitor extends Background {

    private static final Logger log = LoggerFactory.getLogger(ReplicaMonitor.class);

    /** What the last measurement found. UNKNOWN (before the first probe) trusts the replica. */
    public enum State { UNKNOWN, HEALTHY, LAGGING, UNREACHABLE }

    /** An immutable view for health, metrics and the internal endpoint. */
    public record Status(State state, boolean readsOnReplica, Duration lastLag, Instant checkedAt, String reason) {
    }

    /** How much longer than its own bound a GTID wait may take to answer. */
    static final Duration PROBE_MARGIN = Duration.ofMillis(500);

    private final JdbcClient replica;
    private final JdbcTemplate replicaConnections;
    private final JdbcClient primary;
    private final ReadRoutingSettings settings;
    private final Clock clock;
    private volatile Status status;

    ReplicaMonitor(@ReplicaDatabase DataSource replica, @PrimaryDatabase JdbcClient primary,
            ReadRoutingSettings settings, Clock clock) {
        super("replica-monitor", Phases.SERVING, Duration.ofSeconds(2));
        this.replica = JdbcClient.create(replica);
        this.replicaConnections = new JdbcTemplate(replica);
        this.primary = primary;
        this.settings = settings;
        this.clock = clock;
        this.status = new Status(State.UNKNOWN, true, null, null, "not measured yet");
    }

    public boolean readsOnReplica() {
        return status.readsOnReplica();
    }

    public Status status() {
        return status;
    }

    /** A read failed to reach the replica: stop sending reads there until a probe succeeds. */
    void readFailed(String reason) {
        update(State.UNREACHABLE, status.lastLag(), "read failed: " + reason);
    }

    /**
     * One measurement. If the primary cannot be asked for its position, lag cannot be measured;
     * the replica is then judged on reachability alone, since it is the only copy left to read.
     */
    void probe() {
        String position = null;
        try {
            position = primary.sql(settings.gtidFlavor().primaryPositionSql).query(String.class).optional().orElse(null);
        } catch (DataAccessException e) {
            log.debug("Primary position unavailable; probing the replica for reachability only", e);
        }
        long start = System.nanoTime();
        try {
            if (position == null || position.isBlank()) {
                replica.sql("SELECT 1").query(Integer.class).single();
                update(State.HEALTHY, status.lastLag(), position == null ? "reachable; lag unknown (primary unavailable)" : "reachable");
                return;
            }
            boolean applied = hasApplied(position, settings.maxReplicaLag());
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            if (applied) {
                update(State.HEALTHY, took, "caught up within " + settings.maxReplicaLag());
            } else {
                update(State.LAGGING, took, "has not applied " + position + " within " + settings.maxReplicaLag());
            }
        } catch (DataAccessException e) {
            update(State.UNREACHABLE, status.lastLag(), rootMessage(e));
        }
    }

    /**
     * Whether the replica has applied {@code position}, waiting up to {@code wait} for it (a
     * GTID wait), on a connection allowed to wait that long: the pool's socket timeout is
     * shorter than the probe's wait and a writer's read's wait with the primary down (a
     * writer's usual sync wait, 100 ms, fits in it and keeps it).
     *
     * @throws DataAccessException when the replica cannot be reached ({@link DatabaseUnreachable})
     *         or refuses the position (one from before a rebuild, say)
     */
    boolean hasApplied(String position, Duration wait) {
        int networkTimeout = (int) wait.plus(PROBE_MARGIN).toMillis();
        Integer result = replicaConnections.execute((ConnectionCallback<Integer>) connection -> {
            int pools = connection.getNetworkTimeout(); // 0: none
            if (pools != 0 && pools < networkTimeout) {
                connection.setNetworkTimeout(Runnable::run, networkTimeout);
            }
            try (PreparedStatement statement = connection.prepareStatement(settings.gtidFlavor().waitSql)) {
                statement.setString(1, position);
                statement.setDouble(2, seconds(wait));
                try (ResultSet answer = statement.executeQuery()) {
                    if (!answer.next()) {
                        return null;
                    }
                    int value = answer.getInt(1);
                    return answer.wasNull() ? null : value;
                }
            }
        });
        return settings.gtidFlavor().reached(result);
    }

    private synchronized void update(State state, Duration lag, String reason) {
        Status previous = status;
        boolean onReplica = state == State.HEALTHY || state == State.UNKNOWN;
        status = new Status(state, onReplica, lag, clock.instant(), reason);
        if (previous.readsOnReplica() != onReplica) {
            if (onReplica) {
                log.info("Replica is back ({}): reads return to it", reason);
            } else {
                log.warn("Replica is {} ({}): reads go to the primary until it recovers", state, reason);
            }
        }
    }

    static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }

    static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName();
    }

    @Override
    protected void onStart() {
        every(Duration.ZERO, settings.probeInterval(), this::probe);
    }
}
