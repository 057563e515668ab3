package dev.hanwiki.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class IndexerProgressTest {

    private final IndexerProgress progress = new IndexerProgress();

    @Test
    void startsNotCaughtUp() {
        assertThat(progress.snapshot().caughtUp()).isFalse();
        assertThat(progress.snapshot().phase()).isEqualTo(IndexerProgress.Phase.STARTING);
    }

    @Test
    void catchesUpWhenEveryPartitionReachesItsStartUpEndOffset() {
        progress.assigned(Map.of(0, 10L, 1, 5L), Map.of());
        progress.applied(Map.of(0, 10L, 1, 4L));
        assertThat(progress.snapshot().caughtUp()).isFalse();
        assertThat(progress.snapshot().phase()).isEqualTo(IndexerProgress.Phase.CATCHING_UP);

        progress.applied(Map.of(0, 10L, 1, 5L));

        assertThat(progress.snapshot().caughtUp()).isTrue();
        assertThat(progress.snapshot().phase()).isEqualTo(IndexerProgress.Phase.CAUGHT_UP);
    }

    @Test
    void resumingAtTheEndIsCaughtUpImmediately() {
        progress.assigned(Map.of(0, 42L), Map.of(0, 42L));

        assertThat(progress.snapshot().caughtUp()).isTrue();
    }

    @Test
    void partitionWithUnknownPositionIsNotCaughtUp() {
        progress.assigned(Map.of(0, 0L, 1, 3L), Map.of(0, 0L));

        assertThat(progress.snapshot().caughtUp()).isFalse();
    }

    @Test
    void onceCaughtUpLaterOutagesDoNotRevokeIt() {
        progress.assigned(Map.of(0, 1L), Map.of(0, 1L));

        progress.waiting(IndexerProgress.Phase.WAITING_FOR_KAFKA, "Kafka down");

        assertThat(progress.snapshot().caughtUp()).isTrue();
        assertThat(progress.snapshot().lastError()).isEqualTo("Kafka down");
    }

    @Test
    void aTopicThatEndsInsideASnapshotIsNotCaughtUpUntilTheSnapshotsLastRowIsApplied() {
        // make restore at 1M pages: the node reaches the end it saw at its start while the
        // snapshot is still streaming the database's rows in
        progress.assigned(Map.of(0, 100L), Map.of());
        progress.insideSnapshot(true);
        progress.applied(Map.of(0, 100L));
        assertThat(progress.snapshot().caughtUp()).isFalse();
        assertThat(progress.snapshot().insideSnapshot()).isTrue();

        progress.applied(Map.of(0, 5_000L));
        assertThat(progress.snapshot().caughtUp()).isFalse();

        progress.insideSnapshot(false);
        progress.applied(Map.of(0, 5_001L));
        assertThat(progress.snapshot().caughtUp()).isTrue();
    }

    @Test
    void aLaterSnapshotDoesNotTakeACaughtUpNodeOutOfRotation() {
        progress.assigned(Map.of(0, 1L), Map.of(0, 1L));

        progress.insideSnapshot(true); // the CDC watchdog's re-snapshot
        progress.applied(Map.of(0, 2L));

        assertThat(progress.snapshot().caughtUp()).isTrue();
    }
}
