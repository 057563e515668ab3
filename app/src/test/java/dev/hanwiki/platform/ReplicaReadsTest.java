package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

class ReplicaReadsTest {

    private static final Instant START = Instant.parse("2025-11-21T00:00:00Z");

    // Real clients that are never connected: the query below only looks at which one it got.
    private final JdbcClient replica = JdbcClient.create(new SimpleDriverDataSource());
    private final JdbcClient primary = JdbcClient.create(new SimpleDriverDataSource());
    private final MutableClock clock = new MutableClock();
    private final ReplicaReads reads = new ReplicaReads(replica, primary, clock);
    private final List<String> asked = new ArrayList<>();
    private boolean replicaDown;

    private final Function<JdbcClient, String> query = db -> {
        String name = db == replica ? "replica" : "primary";
        asked.add(name);
        if (db == replica && replicaDown) {
            throw new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection");
        }
        return name;
    };

    @Test
    void healthyReplicaServesReads() {
        assertThat(reads.query(query)).isEqualTo("replica");
        assertThat(asked).containsExactly("replica");
    }

    @Test
    void unreachableReplicaFallsBackToThePrimary() {
        replicaDown = true;

        assertThat(reads.query(query)).isEqualTo("primary");
        assertThat(asked).containsExactly("replica", "primary");
    }

    @Test
    void afterAFailureReadsGoStraightToThePrimaryForAWhile() {
        replicaDown = true;
        reads.query(query);
        asked.clear();
        clock.now = START.plusSeconds(1);

        assertThat(reads.query(query)).isEqualTo("primary");
        assertThat(asked).containsExactly("primary");
    }

    @Test
    void replicaIsTriedAgainOnceThePauseIsOver() {
        replicaDown = true;
        reads.query(query);
        replicaDown = false;
        asked.clear();
        clock.now = START.plus(ReplicaReads.PRIMARY_ONLY_AFTER_FAILURE).plusMillis(1);

        assertThat(reads.query(query)).isEqualTo("replica");
        assertThat(asked).containsExactly("replica");
    }

    private static final class MutableClock extends Clock {

        Instant now = START;

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
