package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.RecoverableDataAccessException;
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
        assertThat(PrimaryWrites.unreachable(noConnection)).isFalse();
        assertThat(PrimaryWrites.unreachable(timedOutStatement())).isTrue();
        assertThat(PrimaryWrites.unreachable(new DuplicateKeyException("dup"))).isFalse();
        assertThat(PrimaryWrites.unreachable(new IllegalStateException("a bug"))).isFalse();
    }
}
