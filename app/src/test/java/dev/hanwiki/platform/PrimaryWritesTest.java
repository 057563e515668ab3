package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/** Which failures of a write transaction are "not confirmed" (timed out) and which pause writes. */
class PrimaryWritesTest {

    private static RecoverableDataAccessException timedOutStatement() {
        return new RecoverableDataAccessException("FOR UPDATE",
                new SQLException("Communications link failure", "08S01", new SocketTimeoutException("Read timed out")));
    }

    @Test
    void aSocketTimeoutUnderAnyWrapperIsNotConfirmed() {
        assertThat(PrimaryWrites.timedOut(timedOutStatement())).isTrue();
    }

    @Test
    void aTimeoutHiddenByTheRollbackThatFailedAfterItIsNotConfirmed() {
        // The rollback on the connection the timeout closed fails, and Spring throws that failure,
        // keeping the timeout only as the "application exception".
        TransactionSystemException rollbackFailed = new TransactionSystemException("JDBC rollback failed",
                new SQLException("No operations allowed after connection closed."));
        rollbackFailed.initApplicationException(timedOutStatement());
        assertThat(PrimaryWrites.timedOut(rollbackFailed)).isTrue();
    }

    @Test
    void aLostConnectionAfterAWholeWriteTimeoutIsNotConfirmed() {
        // What a commit held by a full disk throws: the rollback's failure, the timeout only logged.
        var rollbackFailed = new TransactionSystemException("JDBC rollback failed",
                new SQLException("No operations allowed after connection closed."));
        Duration timeout = Duration.ofMillis(1500);
        assertThat(PrimaryWrites.notConfirmed(rollbackFailed, timeout.toNanos() + 5_000_000, timeout)).isTrue();
        assertThat(PrimaryWrites.notConfirmed(rollbackFailed, Duration.ofMillis(500).toNanos(), timeout))
                .as("a primary that refused the connection at once: not written").isFalse();
        assertThat(PrimaryWrites.notConfirmed(new DuplicateKeyException("dup"), timeout.toNanos() * 2, timeout)).isFalse();
    }

    @Test
    void otherFailuresAreNotTimeouts() {
        assertThat(PrimaryWrites.timedOut(new DuplicateKeyException("dup"))).isFalse();
        assertThat(PrimaryWrites.timedOut(new TransactionSystemException("JDBC rollback failed",
                new SQLException("No operations allowed after connection closed.")))).isFalse();
    }

    @Test
    void aConnectionThatCouldNotBeHadIsNeverNotConfirmed() {
        // After a host came back, the pool may take longer than the write timeout to replace its
        // dead connections: the transaction never began, so nothing can commit later.
        Duration timeout = Duration.ofMillis(1500);
        var noConnection = new CannotCreateTransactionException("Could not open JDBC Connection for transaction",
                new SQLException("Connection is not available, request timed out after 500ms",
                        new SocketTimeoutException("connect timed out")));
        assertThat(PrimaryWrites.notConfirmed(noConnection, timeout.toNanos() * 2, timeout)).isFalse();
        assertThat(PrimaryWrites.primaryRefusesConnections(noConnection)).as("a connect that timed out").isFalse();
        assertThat(PrimaryWrites.unreachable(noConnection)).isFalse();
        assertThat(PrimaryWrites.unreachable(timedOutStatement())).isTrue();
        assertThat(PrimaryWrites.unreachable(new DuplicateKeyException("dup"))).isFalse();
        assertThat(PrimaryWrites.unreachable(new IllegalStateException("a bug"))).isFalse();
    }

    /** A real pool and driver against a primary nothing answers for; the breaker as built. */
    private static PrimaryWrites writesTo(HikariDataSource pool, DataSourceSettings.Pool settings) {
        var routing = new ReadRoutingSettings(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofMillis(100),
                Duration.ofSeconds(60), GtidFlavor.MARIADB, "test-secret");
        return new PrimaryWrites(new JdbcTransactionManager(pool), pool, JdbcClient.create(pool),
                new ReadYourWrites(routing), routing, new DataSourceSettings(settings, settings, Duration.ofMillis(1500)),
                new SimpleMeterRegistry());
    }

    private static DataSourceSettings.Pool poolAt(int port) {
        return new DataSourceSettings.Pool("jdbc:mysql://127.0.0.1:" + port + "/hanwiki", "hanwiki_app", "x", 4,
                Duration.ofMillis(250), Duration.ofSeconds(20), Duration.ZERO);
    }

    @Test
    void writesPauseWhileThePrimaryRefusesConnections() throws IOException {
        // A stopped primary (chaos primary-restart): nothing listens on its port. Each write would
        // wait the pool's whole timeout, holding an overload slot; after three, writes pause.
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        DataSourceSettings.Pool settings = poolAt(port);
        try (HikariDataSource pool = DatabaseConfiguration.pool("refused", settings, false)) {
            PrimaryWrites writes = writesTo(pool, settings);
            for (int i = 0; i < 3; i++) {
                assertThatThrownBy(() -> writes.inTransaction(() -> { }))
                        .isInstanceOf(CannotCreateTransactionException.class);
            }
            long start = System.nanoTime();
            assertThatThrownBy(() -> writes.inTransaction(() -> { })).isInstanceOf(WritesPausedException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(100));
            assertThat(writes.state()).isEqualTo(CircuitBreaker.State.OPEN);
        }
    }

    @Test
    void writesDoNotPauseWhileThePrimaryAcceptsButThePoolCannotHandOutAConnectionInTime() throws Exception {
        // The pool replacing dead connections after a host came back (chaos host-b-isolate): the
        // primary is reachable, connections just are not ready within the pool's wait.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            DataSourceSettings.Pool settings = poolAt(silent.getLocalPort());
            try (HikariDataSource pool = DatabaseConfiguration.pool("slow", settings, false)) {
                PrimaryWrites writes = writesTo(pool, settings);
                for (int i = 0; i < 4; i++) {
                    assertThatThrownBy(() -> writes.inTransaction(() -> { }))
                            .isInstanceOf(CannotCreateTransactionException.class);
                }
                assertThat(writes.state()).isEqualTo(CircuitBreaker.State.CLOSED);
            }
        }
    }
}
