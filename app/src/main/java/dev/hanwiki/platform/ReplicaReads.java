package dev.hanwiki.platform;

import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Runs read-only queries on the replica when that is both possible and correct, and on the
 * primary otherwise. Possible: {@link ReplicaMonitor} finds it reachable and within the lag
 * bound, and the query itself reaches it. Correct: if the client wrote recently
 * ({@link ReadYourWrites}), the replica must have applied that write first. Losing the replica
 * thus costs primary capacity, never errors, and never shows a writer an older version.
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
        if (!monitor.readsOnReplica()) {
            return onPrimary(query);
        }
        try {
            Optional<String> position = readYourWrites.requiredPosition();
            if (position.isPresent()) {
                if (!replicaHasApplied(position.get())) {
                    return onPrimary(query);
                }
                readYourWrites.reached();
            }
            T result = query.apply(replica);
            metrics.read(true);
            return result;
        } catch (DataAccessResourceFailureException | TransientDataAccessException | RecoverableDataAccessException e) {
            // Connector/J reports a connection that died mid-query (the replica killed) as a
            // recoverable exception, MariaDB's driver as a resource failure: both mean "ask the primary".
            monitor.readFailed(ReplicaMonitor.rootMessage(e));
            log.debug("Replica read failed; answering from the primary", e);
            return onPrimary(query);
        }
    }

    private boolean replicaHasApplied(String position) {
        try {
            Integer result = replica.sql(settings.gtidFlavor().waitSql)
                    .params(position, ReplicaMonitor.seconds(settings.syncWait()))
                    .query(Integer.class).optional().orElse(null);
            return settings.gtidFlavor().reached(result);
        } catch (DataAccessResourceFailureException | TransientDataAccessException | RecoverableDataAccessException e) {
            throw e;
        } catch (DataAccessException e) {
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
