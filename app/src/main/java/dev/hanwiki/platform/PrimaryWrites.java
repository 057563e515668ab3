package dev.hanwiki.platform;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs a client's write as one transaction on the primary, then hands the client the GTID of
 * that commit ({@link ReadYourWrites}) so its next reads, on any node, see the write. The GTID
 * is read on the committing connection right after the commit, while it is still bound to the
 * transaction; failing to read it never fails the write (the client then merely loses the
 * read-your-writes guarantee for this one write).
 * <p>
 * A write never waits on the primary for longer than nginx waits on the node. Each answer the
 * transaction waits for, the commit included, is bounded by {@code hanwiki.datasource.write-timeout}
 * (1.5 s, under nginx's 2.5 s read timeout with room for the rest of the request): a primary that
 * holds its commits (its disk full: MariaDB waits for space, retrying once a minute) or stopped
 * answering gets the write answered with 503 {@code WRITE_NOT_CONFIRMED} (it may still commit),
 * instead of nginx timing the node out and taking it, reads and all, out of rotation. A breaker
 * (Resilience4j) then pauses writes: once half of the node's last writes (at least three) timed
 * out like that, or found the primary refusing connections (stopped, restarting), writes are
 * refused at once with 503 {@code DATABASE_UNAVAILABLE} for {@link #PAUSE}, then one write tries
 * again. So a stuck or stopped primary holds one write per node at a time, not every write for
 * the whole write timeout or the pool's wait (which would also fill the overload limit with
 * waiting writes).
 */
@Component
public class PrimaryWrites {

    private static final Logger log = LoggerFactory.getLogger(PrimaryWrites.class);

    /** How long writes stay refused once the breaker opened, before one write tries again. */
    static final Duration PAUSE = Duration.ofSeconds(2);

    private final TransactionTemplate transaction;
    private final DataSource dataSource;
    private final JdbcClient primary;
    private final ReadYourWrites readYourWrites;
    private final ReadRoutingSettings settings;
    private final Duration writeTimeout;
    private final CircuitBreaker breaker;

    PrimaryWrites(PlatformTransactionManager transactionManager, @PrimaryDatabase DataSource dataSource,
            @PrimaryDatabase JdbcClient primary, ReadYourWrites readYourWrites, ReadRoutingSettings settings,
            DataSourceSettings databases, MeterRegistry meters) {
        this.transaction = new TransactionTemplate(transactionManager);
        this.dataSource = dataSource;
        this.primary = primary;
        this.readYourWrites = readYourWrites;
        this.settings = settings;
        this.writeTimeout = databases.writeTimeout();
        this.breaker = CircuitBreaker.of("primary-writes", CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(10)
                .minimumNumberOfCalls(3)
                .failureRateThreshold(50)
                .waitDurationInOpenState(PAUSE)
                .permittedNumberOfCallsInHalfOpenState(1)
                .build());
        Gauge.builder("hanwiki.primary.writes.breaker.state", breaker, b -> b.getState().getOrder())
                .description("writes to the primary: 0 flowing, 1 paused (the primary did not answer the last ones), 2 trying one")
                .register(meters);
    }

    public <T> T inTransaction(Supplier<T> work) {
        if (!breaker.tryAcquirePermission()) {
            throw new WritesPausedException(PAUSE);
        }
        long start = System.nanoTime();
        AtomicReference<String> committed = new AtomicReference<>();
        T result;
        try {
            result = transaction.execute(status -> {
                boundByWriteTimeout();
                TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                    @Override
                    public void afterCommit() {
                        committed.set(lastCommit());
                    }
                });
                return work.get();
            });
        } catch (RuntimeException e) {
            long took = System.nanoTime() - start;
            if (notConfirmed(e, took, writeTimeout)) {
                breaker.onError(took, TimeUnit.NANOSECONDS, e);
                log.warn("The primary did not answer a write within {} ms: answered as not confirmed ({})",
                        writeTimeout.toMillis(), e.toString());
                throw new WriteNotConfirmedException(writeTimeout, e);
            }
            if (e instanceof CannotCreateTransactionException) {
                if (primaryRefusesConnections(e)) {
                    // The primary is down (a new connection was refused): each write would hold a
                    // server thread and an overload slot for the pool's whole wait (chaos
                    // primary-restart: a create shed as OVERLOADED). Counted, so writes pause.
                    breaker.onError(took, TimeUnit.NANOSECONDS, e);
                } else {
                    // No connection to be had in time, the primary reachable (the pool replacing
                    // dead connections after a host came back, chaos host-b-isolate): not a held
                    // write, so the breaker is not told. Counting these paused writes for seconds.
                    breaker.releasePermission();
                }
            } else {
                breaker.onSuccess(took, TimeUnit.NANOSECONDS); // the primary answered: a refused write
            }
            throw e;
        } catch (Error e) {
            breaker.releasePermission(); // a half-open breaker's one trial must not leak
            throw e;
        }
        breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        if (committed.get() != null) {
            readYourWrites.wrote(committed.get());
        }
        return result;
    }

    /** Every wait for the primary's answer on the transaction's connection, the commit's too. */
    private void boundByWriteTimeout() {
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            // Hikari restores the pool's own timeout when the connection goes back to the pool.
            connection.setNetworkTimeout(Runnable::run, Math.toIntExact(writeTimeout.toMillis()));
        } catch (SQLException e) {
            throw new CannotGetJdbcConnectionException("Could not bound the write's wait", e);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    /**
     * The wait for the primary's answer ran out: the driver's socket timeout, under any wrapper,
     * also when the rollback that followed failed on the closed connection and hid it.
     */
    static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException
                    || t instanceof TransactionSystemException tse && tse.getApplicationException() != null
                            && timedOut(tse.getApplicationException())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The write's outcome is unknown: its wait for the primary ran out. Spring may hide the
     * socket timeout (a failed commit is overridden by the rollback that failed after it on the
     * closed connection, and only logged), so a lost connection after a whole write timeout
     * counts too.
     */
    static boolean notConfirmed(RuntimeException e, long tookNanos, Duration writeTimeout) {
        if (e instanceof CannotCreateTransactionException) {
            return false; // the transaction never began: nothing was sent
        }
        return timedOut(e) || unreachable(e) && tookNanos >= writeTimeout.toNanos();
    }

    /**
     * No connection could be had because the primary refused a new one (nothing listens: it is
     * stopped or restarting). The pool's timeout carries its last connection failure as the cause;
     * a dead pooled connection found at validation is a failed read, not a refused connect, so a
     * pool replacing those (a host back from a cut) is not taken for a primary that is down.
     */
    static boolean primaryRefusesConnections(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return true;
            }
        }
        return false;
    }

    /** The connection to the primary failed during the transaction (the commit's rollback included). */
    static boolean unreachable(RuntimeException e) {
        return e instanceof TransactionSystemException || e instanceof DataAccessException d && DatabaseUnreachable.is(d);
    }

    CircuitBreaker.State state() {
        return breaker.getState();
    }

    public void inTransaction(Runnable work) {
        inTransaction(() -> {
            work.run();
            return null;
        });
    }

    private String lastCommit() {
        try {
            return primary.sql(settings.gtidFlavor().lastCommitSql).query(String.class).optional().orElse(null);
        } catch (DataAccessException e) {
            log.warn("Committed, but could not read the commit's GTID: {}", e.getMessage());
            return null;
        }
    }
}
