package dev.hanwiki.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class AppliedOffsetsTest {

    private static final Duration SECOND = Duration.ofSeconds(1);
    private final AppliedOffsets offsets = new AppliedOffsets("posts");

    @Test
    void resumedOffsetsNeedNoCommit() {
        offsets.resumeFrom(Map.of(0, 10L));

        assertThat(offsets.commitDue(5_000, SECOND, true)).isFalse();
        assertThat(offsets.userData()).isEqualTo(Map.of("kafka.posts.0", "10"));
    }

    @Test
    void appliedRecordsAreCommittedAtMostOncePerInterval() {
        offsets.applied(0, 11);
        assertThat(offsets.commitDue(1_000, SECOND, false)).isTrue();
        offsets.committed(1_000);

        offsets.applied(0, 12);

        assertThat(offsets.commitDue(1_500, SECOND, false)).isFalse();
        assertThat(offsets.commitDue(1_500, SECOND, true)).isTrue();
        assertThat(offsets.commitDue(2_000, SECOND, false)).isTrue();
    }

    @Test
    void firstObservedPositionIsNotAChangeButAMovedOneIs() {
        offsets.observed(0, 0);
        assertThat(offsets.commitDue(10_000, SECOND, true)).isFalse();

        offsets.observed(0, 0);
        assertThat(offsets.commitDue(10_000, SECOND, true)).isFalse();

        offsets.observed(0, 2); // stepped over a transaction marker
        assertThat(offsets.commitDue(10_000, SECOND, true)).isTrue();
        assertThat(offsets.next(0)).isEqualTo(2);
    }

    @Test
    void kafkaOffsetsMirrorTheIndexOffsets() {
        offsets.applied(0, 7);
        offsets.applied(1, 3);

        assertThat(offsets.forKafka()).isEqualTo(Map.of(
                new TopicPartition("posts", 0), new OffsetAndMetadata(7),
                new TopicPartition("posts", 1), new OffsetAndMetadata(3)));
        assertThat(offsets.view()).isEqualTo(Map.of(0, 7L, 1, 3L));
    }
}
