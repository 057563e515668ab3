package dev.hanwiki.platform;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs a client's write as one transaction on the primary, then hands the client the GTID of
 * that commit ({@link ReadYourWrites}) so its next reads, on any node, see the write. The GTID
 * is read on the committing connection right after the commit, while it is still bound to the
 * transaction; failing to read it never fails the write (the client then merely loses the
 * read-your-writes guarantee for this one write).
 */
@Component
public class PrimaryWrites {

    private static final Logger log = LoggerFactory.getLogger(PrimaryWrites.class);

    private final TransactionTemplate transaction;
    private final JdbcClient primary;
    private final ReadYourWrites readYourWrites;
    private final ReadRoutingSettings settings;

    PrimaryWrites(PlatformTransactionManager transactionManager, @PrimaryDatabase JdbcClient primary,
            ReadYourWrites readYourWrites, ReadRoutingSettings settings) {
        this.transaction = new TransactionTemplate(transactionManager);
        this.primary = primary;
        this.readYourWrites = readYourWrites;
        this.settings = settings;
    }

    public <T> T inTransaction(Supplier<T> work) {
        AtomicReference<String> committed = new AtomicReference<>();
        T result = transaction.execute(status -> {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    committed.set(lastCommit());
                }
            });
            return work.get();
        });
        if (committed.get() != null) {
            readYourWrites.wrote(committed.get());
        }
        return result;
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
