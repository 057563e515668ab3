package dev.hanwiki.cdc;

import java.time.Duration;
import java.util.List;

/**
 * How old the changes the indexer applies are, one of the two signs that it is catching up
 * ({@link PostChangeConsumer#catchingUp}): the age of the newest fresh change of the last batch
 * when that batch was polled. Confined to the consumer thread.
 *
 * <p>A quiet stream clears the age, but only once it has been quiet for {@code quiet}. After a
 * Kafka or Connect outage, Connect drains the binlog's backlog into Kafka in bursts, and a poll
 * between two bursts finds Kafka empty although older changes are still on their way. Clearing
 * the age at that poll switched the indexer to following the stream and back to catching up
 * several times in the seconds after an outage (two log lines each time, and the batches of each
 * short "following" spell at normal priority). A stream that says nothing for {@code quiet} has
 * no backlog left to deliver.
 */
final class ChangeAge {

    private final long quietMillis;
    private long ageMillis;
    private long lastRecordsAtMillis = Long.MIN_VALUE;

    ChangeAge(Duration quiet) {
        this.quietMillis = quiet.toMillis();
    }

    /** A poll returned {@code records} records at {@code nowMillis}. */
    void polled(int records, long nowMillis) {
        if (records > 0) {
            lastRecordsAtMillis = nowMillis;
        } else if (lastRecordsAtMillis == Long.MIN_VALUE || nowMillis - lastRecordsAtMillis >= quietMillis) {
            ageMillis = 0; // nothing pending for a while: whatever comes next is new
        }
    }

    /**
     * A polled batch was applied; {@code changedAt}: the write times of its fresh changes (none
     * for likes, view flushes, snapshot reads: the age stays as it was).
     */
    void applied(List<Long> changedAt, long polledAtMillis) {
        ageMillis = changedAt.stream().mapToLong(at -> polledAtMillis - at).min().orElse(ageMillis);
    }

    long millis() {
        return ageMillis;
    }
}
