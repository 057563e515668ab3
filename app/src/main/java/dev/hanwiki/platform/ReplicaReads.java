package dev.hanwiki.platform;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Runs read-only queries on the replica when that is both possible and correct, and on the
 * primary otherwise. Possible: {@link ReplicaMonitor} finds it reachable and within the lag
 * bound, and the query itself reaches it. Correct: if the client wrote recently
 * ({@link ReadYourWrites}), the replica must have applied that write first. Losing the replica
 * thus costs primary capacity, never errors, and never shows a writer an older version.
 *
 * <p>The other way round, a read the primary cannot answer (it is restarting, or cut off) is
 * answered by the replica when that is still correct: the replica is then the only copy left,
 * so lag alone does not rule it out (as {@link ReplicaMonitor} judges it when the primary's
 * position cannot be read); a writer's read waits there, up to {@code max-replica-lag}, for
 * the writer's position, and gets the primary's error if it does not arrive.
 */
@Component
public class ReplicaReads {

    private static final Logger log = LoggerFactory.getLogger(ReplicaReads.class);

    private final JdbcClient replica;
    private final JdbcClient primary;
    private final ReplicaMonitor monitor;
    private final ReadYourWrites readYourWrites;
    private final ReadRoutingSettings settings;
    private final ReadRoutingMetrics metrics;

    ReplicaReads(@ReplicaDatabase JdbcClient replica, @PrimaryDatabase JdbcClient primary, ReplicaMonitor monitor,
            ReadYourWrites readYourWrites, ReadRoutingSettings settings, ReadRoutingMetrics metrics) {
        this.replica = replica;
        this.primary = primary;
        this.monitor = monitor;
        this.readYourWrites = readYourWrites;
        this.settings = settings;
        this.metrics = metrics;
    }

    /** @param query a read-only query; it may run twice (replica, then primary), so no side effects */
    public <T> T query(Function<JdbcClient, T> query) {
        Optional<String> position = readYourWrites.requiredPosition();
        if (!monitor.readsOnReplica()) {
            return onPrimaryElseReplica(query, position);
        }
        try {
            if (position.isPresent()) {
                if (!replicaHasApplied(position.get(), settings.syncWait())) {
                    return onPrimaryElseReplica(query, position);
                }
                readYourWrites.reached();
            }
            return onReplica(query);
        } catch (DataAccessException e) {
            if (!DatabaseUnreachable.is(e)) {
                throw e;
            }
            monitor.readFailed(ReplicaMonitor.rootMessage(e));
            log.debug("Replica read failed; answering from the primary", e);
            return onPrimary(query);
        }
    }

    /** The primary; if it cannot answer, the replica when that is still correct (class comment). */
    private <T> T onPrimaryElseReplica(Function<JdbcClient, T> query, Optional<String> position) {
        try {
            return onPrimary(query);
        } catch (DataAccessException primaryDown) {
            if (!DatabaseUnreachable.is(primaryDown)) {
                throw primaryDown;
            }
            try {
                if (position.isPresent() && !replicaHasApplied(position.get(), settings.maxReplicaLag())) {
                    throw primaryDown;
                }
                T result = onReplica(query);
                log.debug("Primary read failed; answered from the replica", primaryDown);
                return result;
            } catch (DataAccessException replicaDown) {
                if (replicaDown != primaryDown) {
                    primaryDown.addSuppressed(replicaDown);
                }
                throw primaryDown;
            }
        }
    }

    private <T> T onReplica(Function<JdbcClient, T> query) {
        T result = query.apply(replica);
        metrics.read(true);
        return result;
    }

    private boolean replicaHasApplied(String position, Duration wait) {
        try {
            return monitor.hasApplied(position, wait);
        } catch (DataAccessException e) {
            if (DatabaseUnreachable.is(e)) {
                throw e;
            }
            // A position the server cannot use (say, from before a rebuild): the primary is always right.
            log.debug("Replica refused the wait for {}; reading from the primary", position, e);
            return false;
        }
    }

    private <T> T onPrimary(Function<JdbcClient, T> query) {
        T result = query.apply(primary);
        metrics.read(false);
        return result;
    }
}
