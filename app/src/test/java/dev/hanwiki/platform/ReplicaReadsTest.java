package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

class ReplicaReadsTest {

    /** Refuses connections (nothing listens on port 1): a database that is down. */
    private static JdbcClient unreachable() {
        return JdbcClient.create(unreachableSource());
    }

    private static DriverManagerDataSource unreachableSource() {
        return new DriverManagerDataSource("jdbc:mysql://127.0.0.1:1/hanwiki?connectTimeout=200");
    }

    static final ReadRoutingSettings SETTINGS = new ReadRoutingSettings(Duration.ofSeconds(1), Duration.ofSeconds(1),
            Duration.ofMillis(100), Duration.ofSeconds(60), GtidFlavor.MARIADB, "test-sync-secret");

    // The query below only looks at which client it got; only the writer check really connects.
    private final JdbcClient replica = unreachable();
    private final JdbcClient primary = unreachable();
    private final ReplicaMonitor monitor = new ReplicaMonitor(unreachableSource(), primary, SETTINGS, Clock.systemUTC());
    private final ReplicaReads reads = new ReplicaReads(replica, primary, monitor, new ReadYourWrites(SETTINGS), SETTINGS,
            new ReadRoutingMetrics(monitor));
    private final List<String> asked = new ArrayList<>();
    private boolean replicaDown;
    private boolean primaryDown;

    private final Function<JdbcClient, String> query = db -> {
        String name = db == replica ? "replica" : "primary";
        asked.add(name);
        if (db == replica && replicaDown || db == primary && primaryDown) {
            throw new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection (" + name + ")");
        }
        return name;
    };

    @AfterEach
    void clearRequest() {
        RequestContextHolder.resetRequestAttributes();
    }

    @Test
    void healthyReplicaServesReads() {
        assertThat(reads.query(query)).isEqualTo("replica");
        assertThat(asked).containsExactly("replica");
    }

    @Test
    void unreachableReplicaFallsBackToThePrimaryAndStopsReceivingReads() {
        replicaDown = true;

        assertThat(reads.query(query)).isEqualTo("primary");
        assertThat(asked).containsExactly("replica", "primary");
        assertThat(monitor.readsOnReplica()).isFalse();
        assertThat(monitor.status().state()).isEqualTo(ReplicaMonitor.State.UNREACHABLE);
    }

    @Test
    void aReplicaConnectionDyingMidQueryFallsBackToThePrimary() {
        // What Connector/J reports when the replica is killed under a query (ReplicaFailoverIT).
        Function<JdbcClient, String> dying = db -> {
            asked.add(db == replica ? "replica" : "primary");
            if (db == replica) {
                throw new org.springframework.dao.RecoverableDataAccessException("Communications link failure");
            }
            return "primary";
        };

        assertThat(reads.query(dying)).isEqualTo("primary");
        assertThat(asked).containsExactly("replica", "primary");
    }

    @Test
    void afterAFailureReadsGoStraightToThePrimaryUntilAProbeSucceeds() {
        replicaDown = true;
        reads.query(query);
        replicaDown = false;
        asked.clear();

        assertThat(reads.query(query)).isEqualTo("primary");
        assertThat(asked).containsExactly("primary");
    }

    @Test
    void aProbeThatCannotReachTheReplicaKeepsReadsOnThePrimary() {
        monitor.probe();

        assertThat(monitor.readsOnReplica()).isFalse();
        assertThat(reads.query(query)).isEqualTo("primary");
    }

    @Test
    void aWriterWhosePositionCannotBeCheckedOnTheReplicaReadsFromThePrimary() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1.0/posts/1");
        request.addHeader(ReadYourWrites.HEADER, new ReadYourWrites(SETTINGS).sign("0-1-42"));
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request, new MockHttpServletResponse()));

        assertThat(reads.query(query)).isEqualTo("primary");
        assertThat(asked).containsExactly("primary");
    }

    @Test
    void aReadThePrimaryCannotAnswerIsAnsweredByTheReplicaEvenWhenReadsHadLeftIt() {
        // reads left the replica (a failed read), then the primary went down (primary-restart)
        replicaDown = true;
        reads.query(query);
        replicaDown = false;
        primaryDown = true;
        asked.clear();

        assertThat(reads.query(query)).isEqualTo("replica");
        assertThat(asked).containsExactly("primary", "replica");
    }

    @Test
    void aWritersReadThePrimaryCannotAnswerGetsThePrimarysErrorWhenTheReplicaCannotShowItsWrite() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1.0/posts/1");
        request.addHeader(ReadYourWrites.HEADER, new ReadYourWrites(SETTINGS).sign("0-1-42"));
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request, new MockHttpServletResponse()));
        primaryDown = true;

        // the replica cannot confirm the position (its wait fails): never an older version
        assertThatThrownBy(() -> reads.query(query))
                .isInstanceOf(CannotGetJdbcConnectionException.class)
                .hasMessageContaining("(primary)");
        assertThat(asked).containsExactly("primary");
    }

    @Test
    void whenBothAreDownTheReadFailsWithThePrimarysError() {
        primaryDown = true;
        replicaDown = true;

        assertThatThrownBy(() -> reads.query(query))
                .isInstanceOf(CannotGetJdbcConnectionException.class)
                .hasMessageContaining("(primary)");
        assertThat(asked).containsExactly("replica", "primary");
    }

    @Test
    void aForgedPositionIsIgnored() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1.0/posts/1");
        request.addHeader(ReadYourWrites.HEADER, Base64.getUrlEncoder().encodeToString("0-1-1'; DROP TABLE posts".getBytes()));
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request, new MockHttpServletResponse()));

        assertThat(reads.query(query)).isEqualTo("replica");
    }
}
