package dev.hanwiki.cdc;

import dev.hanwiki.change.IndexCatchUp;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * Where the indexer stands, published by the consumer thread and read by health and stats.
 * "Caught up" means every partition's applied position reached the end offset recorded when
 * the partitions were assigned; once reached it stays true, so a later burst of writes or a
 * Kafka outage does not take a serving node out of rotation. Only the consumer thread writes it.
 */
@Component
class IndexerProgress implements IndexCatchUp {

    enum Phase { STARTING, WAITING_FOR_KAFKA, WAITING_FOR_TOPIC, CATCHING_UP, CAUGHT_UP, STOPPED }

    /** An immutable view for readers on other threads. */
    record Snapshot(Phase phase, boolean caughtUp, Map<Integer, Long> targetOffsets,
            Map<Integer, Long> appliedOffsets, String lastError) {
    }

    private Phase phase = Phase.STARTING;
    private boolean caughtUp;
    private Map<Integer, Long> targetOffsets = Map.of();
    private Map<Integer, Long> appliedOffsets = Map.of();
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
        return new Snapshot(phase, caughtUp, targetOffsets, appliedOffsets, lastError);
    }

    private void update(Map<Integer, Long> applied) {
        appliedOffsets = Map.copyOf(applied);
        if (!caughtUp) {
            caughtUp = targetOffsets.entrySet().stream()
                    .allMatch(t -> appliedOffsets.getOrDefault(t.getKey(), -1L) >= t.getValue());
        }
        phase = caughtUp ? Phase.CAUGHT_UP : Phase.CATCHING_UP;
    }
}
