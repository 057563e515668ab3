package dev.hanwiki.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hanwiki.platform.NodeSettings;
import dev.hanwiki.search.PostIndex;
import dev.hanwiki.search.SearchSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import tools.jackson.databind.json.JsonMapper;

/** The consumer against a Kafka that is not there: it must wait, report, and stop cleanly. */
class PostChangeConsumerTest {

    @TempDir
    Path dir;

    @Test
    void unreachableKafkaIsWaitedOutReportedAsNotReadyAndStopsPromptly() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        CdcSettings settings = new CdcSettings("127.0.0.1:" + closedPort, DebeziumEvents.TOPIC, "test-group",
                Duration.ofMillis(100), Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofMillis(100), Duration.ofMillis(300), Duration.ofHours(24),
                0, 2, null, null);
        IndexerProgress progress = new IndexerProgress();
        try (PostIndex index = new PostIndex(SearchSettings.at(dir))) {
            PostChangeApplier applier = new PostChangeApplier(index, new PostChangeParser(JsonMapper.builder().build()), (poison, reason) -> { }, Clock.systemUTC());
            PostChangeConsumer consumer = new PostChangeConsumer(settings, new NodeSettings("test"), index, applier,
                    progress, new IndexerMetrics(new SimpleMeterRegistry(), progress), Clock.systemUTC(), event -> { });
            IndexerHealthIndicator health = new IndexerHealthIndicator(index, progress);

            consumer.start();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (progress.snapshot().phase() != IndexerProgress.Phase.WAITING_FOR_KAFKA && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }

            Health report = health.health();
            assertThat(progress.snapshot().phase()).isEqualTo(IndexerProgress.Phase.WAITING_FOR_KAFKA);
            assertThat(report.getStatus()).isEqualTo(Status.DOWN);
            assertThat(report.getDetails()).containsEntry("phase", "WAITING_FOR_KAFKA").containsEntry("indexOpen", true);
            assertThat((String) report.getDetails().get("lastError")).contains("not reachable");

            long stopStarted = System.nanoTime();
            consumer.stop();

            assertThat(Duration.ofNanos(System.nanoTime() - stopStarted)).isLessThan(Duration.ofSeconds(5));
            assertThat(consumer.isRunning()).isFalse();
            assertThat(progress.snapshot().phase()).isEqualTo(IndexerProgress.Phase.STOPPED);
            assertThat(index.isOpen()).isTrue();
        }
    }

    @Test
    void indexerIsHealthyOnlyWhenCaughtUpAndTheIndexIsOpen() throws Exception {
        IndexerProgress progress = new IndexerProgress();
        PostIndex index = new PostIndex(SearchSettings.at(dir));
        IndexerHealthIndicator health = new IndexerHealthIndicator(index, progress);

        progress.assigned(Map.of(0, 3L), Map.of(0, 1L));
        assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.health().getDetails()).containsEntry("phase", "CATCHING_UP");

        progress.applied(Map.of(0, 3L));
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);

        index.close();
        assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.health().getDetails()).containsEntry("indexOpen", false);
    }

    @Test
    void aBacklogIsCaughtUpInTheBackgroundUntilTheIndexerFollowsTheStreamAgain() {
        long enter = PostChangeConsumer.CATCH_UP_ENTER_LAG;
        long leave = PostChangeConsumer.CATCH_UP_LEAVE_LAG;
        // Following at 100 writes/s: a few dozen behind, normal priority.
        assertThat(PostChangeConsumer.behind(false, 60, enter, leave)).isFalse();
        // A 90 s Kafka outage at 15 writes/s leaves about 1,350 behind: background.
        assertThat(PostChangeConsumer.behind(false, 1_350, enter, leave)).isTrue();
        // It stays background until under the lower mark, not back and forth around one mark.
        assertThat(PostChangeConsumer.behind(true, 300, enter, leave)).isTrue();
        assertThat(PostChangeConsumer.behind(true, 80, enter, leave)).isFalse();
        assertThat(PostChangeConsumer.behind(false, 300, enter, leave)).isFalse();
    }

    @Test
    void applyingChangesMadeLongAgoIsCatchingUpEvenAFewEventsBehindKafka() {
        // After a Kafka outage Connect replays the binlog into Kafka little by little: the consumer
        // is a few events behind Kafka, but the changes it applies were made a minute ago.
        assertThat(PostChangeConsumer.catchingUp(false, 20, 60_000)).isTrue();
        assertThat(PostChangeConsumer.catchingUp(true, 20, 3_000)).as("until they are recent again").isTrue();
        assertThat(PostChangeConsumer.catchingUp(true, 20, 500)).isFalse();
        // Following the stream: a second behind at most.
        assertThat(PostChangeConsumer.catchingUp(false, 20, 1_000)).isFalse();
        assertThat(PostChangeConsumer.catchingUp(false, 1_350, 1_000)).as("a Kafka backlog").isTrue();
    }
}
