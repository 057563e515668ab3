package dev.hanwiki.platform;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Runs read-only queries on the replica, and on the primary while the replica is unreachable:
 * losing the replica must degrade capacity, never turn reads into errors. After a failure the
 * replica is left alone for a short while, so that not every request pays the connection
 * timeout before falling back.
 */
@Component
public class ReplicaReads {

    private static final Logger log = LoggerFactory.getLogger(ReplicaReads.class);
    static final Duration PRIMARY_ONLY_AFTER_FAILURE = Duration.ofSeconds(5);

    private final JdbcClient replica;
    private final JdbcClient primary;
    private final Clock clock;
    private volatile Instant replicaRetryAt = Instant.MIN;

    ReplicaReads(@ReplicaDatabase JdbcClient replica, @PrimaryDatabase JdbcClient primary, Clock clock) {
        this.replica = replica;
        this.primary = primary;
        this.clock = clock;
    }

    /** @param query a read-only query; it may run twice (replica, then primary), so no side effects */
    public <T> T query(Function<JdbcClient, T> query) {
        if (clock.instant().isBefore(replicaRetryAt)) {
            return query.apply(primary);
        }
        try {
            return query.apply(replica);
        } catch (DataAccessResourceFailureException | TransientDataAccessException e) {
            replicaRetryAt = clock.instant().plus(PRIMARY_ONLY_AFTER_FAILURE);
            log.warn("Replica unavailable ({}); reading from the primary for the next {}", e.getMessage(), PRIMARY_ONLY_AFTER_FAILURE);
            return query.apply(primary);
        }
    }
}
