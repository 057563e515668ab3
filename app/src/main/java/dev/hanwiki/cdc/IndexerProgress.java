package dev.hanwiki.cdc;

import dev.hanwiki.change.IndexCatchUp;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Where the indexer stands, published by the consumer thread and read by health and stats.
 * "Caught up" means every partition's applied position reached the end offset recorded when
 * the partitions were assigned, and the last change applied is not a snapshot row with more to
 * come: a topic still being filled by a snapshot of the database (after {@code make restore}, at
 * 1M pages for minutes) has no useful end yet, and a rebuilding node that joined at the end it saw
 * at its start would answer searches without the pages still streaming in. Once reached it stays
 * true, so a later burst of writes, a re-snapshot or a Kafka outage does not take a serving node
 * out of rotation. Only the consumer thread writes it.
 */
@Component
class IndexerProgress implements IndexCatchUp {

    private static final Logger log = LoggerFactory.getLogger(IndexerProgress.class);

    enum Phase { STARTING, WAITING_FOR_KAFKA, WAITING_FOR_TOPIC, CATCHING_UP, CAUGHT_UP, STOPPED }

    /** An immutable view for readers on other threads. */
    record Snapshot(Phase phase, boolean caughtUp, Map<Integer, Long> targetOffsets,
            Map<Integer, Long> appliedOffsets, boolean insideSnapshot, String lastError) {
    }

    private Phase phase = Phase.STARTING;
    private boolean caughtUp;
    private Map<Integer, Long> targetOffsets = Map.of();
    private Map<Integer, Long> appliedOffsets = Map.of();
    private boolean insideSnapshot;
    private String lastError;

    synchronized void waiting(Phase waitingPhase, String reason) {
        if (!caughtUp) {
            phase = waitingPhase;
        }
        lastError = reason;
    }

    synchronized void assigned(Map<Integer, Long> targets, Map<Integer, Long> applied) {
        targetOffsets = Map.copyOf(targets);
        lastError = null;
        update(applied);
    }

    synchronized void applied(Map<Integer, Long> applied) {
        update(applied);
    }

    /** Whether the last change applied is a snapshot row with more to come (see the class comment). */
    synchronized void insideSnapshot(boolean inside) {
        if (!caughtUp && inside != insideSnapshot && inside) {
            log.info("Reading a snapshot of the database from the change stream: this node serves once its last row is indexed");
        }
        insideSnapshot = inside;
    }

    synchronized void failed(String error) {
        lastError = error;
    }

    synchronized void stopped() {
        phase = Phase.STOPPED;
    }

    @Override
    public synchronized boolean caughtUp() {
        return caughtUp;
    }

    synchronized Snapshot snapshot() {
        return new Snapshot(phase, caughtUp, targetOffsets, appliedOffsets, insideSnapshot, lastError);
    }

    private void update(Map<Integer, Long> applied) {
        appliedOffsets = Map.copyOf(applied);
        if (!caughtUp) {
            caughtUp = !insideSnapshot && targetOffsets.entrySet().stream()
                    .allMatch(t -> appliedOffsets.getOrDefault(t.getKey(), -1L) >= t.getValue());
        }
        phase = caughtUp ? Phase.CAUGHT_UP : Phase.CATCHING_UP;
    }
}
