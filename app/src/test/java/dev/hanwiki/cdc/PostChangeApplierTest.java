package dev.hanwiki.cdc;

import static dev.hanwiki.cdc.DebeziumEvents.key;
import static dev.hanwiki.cdc.DebeziumEvents.record;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hanwiki.change.PostsIndexed;
import dev.hanwiki.search.DocVersion;
import dev.hanwiki.search.IndexSnapshot;
import dev.hanwiki.search.PostIndex;
import dev.hanwiki.search.SearchSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

class PostChangeApplierTest {

    @TempDir
    Path dir;

    private PostIndex index;
    private PostChangeApplier applier;
    private final List<String> deadLettered = new java.util.ArrayList<>();

    @BeforeEach
    void open() throws IOException {
        // Counter changes written at every refresh: what they do, not when (PostIndexTest).
        index = new PostIndex(SearchSettings.at(dir).withCounterWriteInterval(java.time.Duration.ZERO));
        applier = new PostChangeApplier(index, new PostChangeParser(JsonMapper.builder().build()),
                (poison, reason) -> deadLettered.add(poison.offset() + ": " + reason), java.time.Clock.systemUTC());
    }

    @AfterEach
    void close() throws IOException {
        index.close();
    }

    private IndexSnapshot applyAndRefresh(List<ConsumerRecord<String, String>> batch) {
        applier.apply(batch);
        index.writer().refresh();
        return index.snapshot();
    }

    @Test
    void aBatchSaysWhetherItEndsInsideASnapshot() {
        var midway = applier.apply(List.of(record(0, key(1), DebeziumEvents.snapshot(1, "a", "b", 1, "first")),
                record(1, key(2), DebeziumEvents.snapshot(2, "a", "b", 1))));
        var end = applier.apply(List.of(record(2, key(3), DebeziumEvents.snapshot(3, "a", "b", 1, "last"))));
        var streamed = applier.apply(List.of(record(3, key(4), DebeziumEvents.snapshot(4, "a", "b", 1)),
                record(4, key(5), DebeziumEvents.created(5, "a", "b"))));

        assertThat(midway.endsInsideSnapshot()).isTrue();
        assertThat(end.endsInsideSnapshot()).isFalse();
        assertThat(streamed.endsInsideSnapshot()).isFalse();
    }

    /** A realistic stretch of the topic: snapshot, creates, edits, a soft delete, a hard delete and its tombstone. */
    private static List<ConsumerRecord<String, String>> lifecycle() {
        return List.of(
                record(0, key(1), DebeziumEvents.snapshot(1, "snap", "shot", 2)),
                record(1, key(2), DebeziumEvents.created(2, "two", "body")),
                record(2, key(3), DebeziumEvents.created(3, "three", "body")),
                record(3, key(2), DebeziumEvents.updated(2, "two edited", "body", 2)),
                record(4, key(4), DebeziumEvents.created(4, "four", "body")),
                record(5, key(3), DebeziumEvents.softDeleted(3, 2)),
                record(6, key(4), DebeziumEvents.hardDeleted(4)),
                record(7, key(4), null),
                record(8, key(1), DebeziumEvents.updated(1, "snap edited", "x", 3)));
    }

    @Test
    void lifecycleEventsLeaveExactlyTheLivePostsAtTheirLatestVersions() {
        IndexSnapshot snapshot = applyAndRefresh(lifecycle());

        assertThat(snapshot.docs()).containsExactly(new DocVersion(1, 3), new DocVersion(2, 2));
        assertThat(snapshot.numDocs()).isEqualTo(2);
    }

    @Test
    void batchResultCountsAppliedEventsAndTheWriteTimesOfFreshWrites() {
        PostChangeApplier.BatchResult result = applier.apply(lifecycle());

        // The Kafka tombstone after the hard delete finds the delete's tombstone: nothing to do.
        assertThat(result.applied()).isEqualTo(8);
        assertThat(result.unchanged()).isEqualTo(1);
        assertThat(result.stale()).isZero();
        assertThat(result.skipped()).isZero();
        // Neither the snapshot read nor the tombstone is a fresh write with a time.
        assertThat(result.changedAt()).hasSize(7);
    }

    @Test
    void replayingTheSameBatchLeavesTheSameIndex() {
        IndexSnapshot once = applyAndRefresh(lifecycle());
        IndexSnapshot twice = applyAndRefresh(lifecycle());

        assertThat(twice.docs()).isEqualTo(once.docs());
        assertThat(twice.numDocs()).isEqualTo(once.numDocs());
    }

    @Test
    void replayedOlderEventDoesNotRegressVersion() {
        applyAndRefresh(List.of(record(0, key(1), DebeziumEvents.updated(1, "v5", "x", 5))));

        PostChangeApplier.BatchResult result = applier.apply(List.of(record(1, key(1), DebeziumEvents.updated(1, "v4", "x", 4))));
        index.writer().refresh();

        assertThat(result.stale()).isEqualTo(1);
        assertThat(result.applied()).isZero();
        assertThat(result.changes()).as("a stale event is nobody's news").isEmpty();
        assertThat(index.snapshot().docs()).containsExactly(new DocVersion(1, 5));
    }

    @Test
    void onlyAnUpdateThatKeepsTheRowVersionIsCountersOnly() {
        applyAndRefresh(List.of(record(0, key(1), DebeziumEvents.created(1, "t", "x"))));

        PostChangeApplier.BatchResult edit = applier.apply(List.of(record(1, key(1), DebeziumEvents.updated(1, "t2", "x", 2))));
        PostChangeApplier.BatchResult like = applier.apply(List.of(record(2, key(1), DebeziumEvents.countersUpdated(1, 2))));
        PostChangeApplier.BatchResult delete = applier.apply(List.of(record(3, key(1), DebeziumEvents.softDeleted(1, 3))));

        assertThat(edit.changes()).extracting(PostsIndexed.Change::countersOnly).containsExactly(false);
        assertThat(like.changes()).extracting(PostsIndexed.Change::countersOnly).containsExactly(true);
        assertThat(delete.changes()).extracting(PostsIndexed.Change::countersOnly).containsExactly(false);
    }

    @Test
    void viewThatLeavesThePopularityBucketUnchangedIsNotReindexed() {
        String event = DebeziumEvents.updated(1, "t", "x", 2);
        applyAndRefresh(List.of(record(0, key(1), event)));

        PostChangeApplier.BatchResult oneMoreView = applier.apply(List.of(
                record(1, key(1), event.replace("\"view_count\":3", "\"view_count\":4"))));
        PostChangeApplier.BatchResult manyMoreLikes = applier.apply(List.of(
                record(2, key(1), event.replace("\"like_count\":2", "\"like_count\":200"))));

        assertThat(oneMoreView.unchanged()).isEqualTo(1);
        assertThat(oneMoreView.applied()).isZero();
        assertThat(manyMoreLikes.applied()).isEqualTo(1);
        // Both are news for caches of the row; only the second moved the bucket, and that is
        // held for the next counter write: this batch's refresh does not show it rewritten.
        assertThat(oneMoreView.changes()).extracting(PostsIndexed.Change::reindexed).containsExactly(false);

        assertThat(manyMoreLikes.changes()).singleElement()
                .satisfies(c -> assertThat(c.likeCount()).isEqualTo(200))
                .satisfies(c -> assertThat(c.reindexed()).isFalse());
    }

    @Test
    void counterRowChangeReachesTheIndexWithoutRewritingThePage() {
        applyAndRefresh(List.of(record(0, key(1), DebeziumEvents.pageUpdated(1, "서울 여행", "본문", 2))));
        java.util.Set<String> segments = dev.hanwiki.search.IndexSegments.names(index);

        PostChangeApplier.BatchResult liked = applier.apply(List.of(
                record(1, DebeziumEvents.counterKey(1), DebeziumEvents.countersChanged(1, 500, 40, 7))));
        index.writer().refresh();

        assertThat(liked.applied()).isEqualTo(1);
        assertThat(liked.changedAt()).isEmpty(); // not a fresh write of the page
        assertThat(liked.changes()).singleElement().satisfies(c -> {
            assertThat(c.countersOnly()).isTrue();
            // Held for the next counter write, which announces itself (PostIndex.onCountersShown).
            assertThat(c.reindexed()).isFalse();
            assertThat(c.likeCount()).isEqualTo(40);
            assertThat(c.viewCount()).isEqualTo(500);
            // The counter row has no version or title: the ones announced are the page's, from the index.
            assertThat(c.version()).isEqualTo(2);
            assertThat(c.title()).isEqualTo("서울 여행");
        });
        // A doc-values update: the document was not added again (no re-analysis, no new segment).
        assertThat(dev.hanwiki.search.IndexSegments.names(index)).isEqualTo(segments);
        assertThat(dev.hanwiki.search.IndexedTitles.byId(index, 1)).hasValueSatisfying(t -> {
            assertThat(t.likeCount()).isEqualTo(40);
            assertThat(t.viewCount()).isEqualTo(500);
        });
    }

    @Test
    void replayedOlderCounterRowDoesNotRegressTheCounts() {
        applyAndRefresh(List.of(
                record(0, key(1), DebeziumEvents.pageUpdated(1, "t", "x", 2)),
                record(1, DebeziumEvents.counterKey(1), DebeziumEvents.countersChanged(1, 5_000, 300, 9))));

        PostChangeApplier.BatchResult replay = applier.apply(List.of(
                record(2, DebeziumEvents.counterKey(1), DebeziumEvents.countersChanged(1, 10, 1, 4))));
        index.writer().refresh();

        assertThat(replay.stale()).isEqualTo(1);
        assertThat(replay.changes()).isEmpty();
        assertThat(dev.hanwiki.search.IndexedTitles.byId(index, 1)).hasValueSatisfying(t -> assertThat(t.likeCount()).isEqualTo(300));
    }

    @Test
    void anEditKeepsTheCountsOfTheCounterRow() {
        applyAndRefresh(List.of(
                record(0, key(1), DebeziumEvents.pageUpdated(1, "t", "x", 2)),
                record(1, DebeziumEvents.counterKey(1), DebeziumEvents.countersChanged(1, 5_000, 300, 9))));

        PostChangeApplier.BatchResult edit = applier.apply(List.of(record(2, key(1), DebeziumEvents.pageUpdated(1, "t2", "y", 3))));
        index.writer().refresh();

        assertThat(edit.changes()).singleElement().satisfies(c -> assertThat(c.likeCount()).isEqualTo(300));
        assertThat(dev.hanwiki.search.IndexedTitles.byId(index, 1)).hasValueSatisfying(t -> {
            assertThat(t.version()).isEqualTo(3);
            assertThat(t.likeCount()).isEqualTo(300);
            assertThat(t.viewCount()).isEqualTo(5_000);
        });
    }

    @Test
    void counterRowBeforeItsPageWaitsForThePageEvenAcrossARestart() throws IOException {
        PostChangeApplier.BatchResult early = applier.apply(List.of(
                record(0, DebeziumEvents.counterKey(5), DebeziumEvents.countersChanged(5, 900, 70, 12))));
        assertThat(early.changes()).isEmpty();
        index.writer().commit(java.util.Map.of());
        index.closeWithoutCommit(); // a crash right after that commit
        open();

        applyAndRefresh(List.of(record(1, key(5), DebeziumEvents.pageUpdated(5, "late page", "x", 4))));

        assertThat(dev.hanwiki.search.IndexedTitles.byId(index, 5)).hasValueSatisfying(t -> {
            assertThat(t.likeCount()).isEqualTo(70);
            assertThat(t.viewCount()).isEqualTo(900);
        });
        assertThat(index.writer().pendingCounters()).isZero();
    }

    @Test
    void counterRowOfADeletedPostIsIgnored() {
        applyAndRefresh(List.of(
                record(0, key(1), DebeziumEvents.pageUpdated(1, "t", "x", 2)),
                record(1, key(1), DebeziumEvents.softDeleted(1, 3))));

        PostChangeApplier.BatchResult late = applier.apply(List.of(
                record(2, DebeziumEvents.counterKey(1), DebeziumEvents.countersChanged(1, 1, 1, 2))));

        assertThat(late.stale()).isEqualTo(1);
        assertThat(index.writer().pendingCounters()).isZero();
        assertThat(index.snapshot().docs()).isEmpty();
    }

    @Test
    void garbledRecordIsDeadLetteredAndTheRestOfTheBatchStillApplies() {
        PostChangeApplier.BatchResult result = applier.apply(List.of(
                record(0, key(1), DebeziumEvents.created(1, "one", "x")),
                record(1, key(2), "{not json"),
                record(2, null, null),
                record(3, key(3), "{\"op\":\"c\",\"after\":{\"id\":3}}"),
                record(4, key(4), DebeziumEvents.created(4, "four", "x"))));
        index.writer().refresh();

        assertThat(result.skipped()).isEqualTo(3);
        assertThat(deadLettered).hasSize(3).allSatisfy(letter -> assertThat(letter).matches("[123]: .+"));
        assertThat(result.applied()).isEqualTo(2);
        assertThat(index.snapshot().docs()).containsExactly(new DocVersion(1, 1), new DocVersion(4, 1));
    }

    @Test
    void tombstoneAloneDeletesThePost() {
        applyAndRefresh(List.of(record(0, key(8), DebeziumEvents.created(8, "t", "c"))));

        IndexSnapshot snapshot = applyAndRefresh(List.of(record(1, key(8), null)));

        assertThat(snapshot.docs()).isEmpty();
    }

    @Test
    void lateOlderUpsertAfterASoftDeleteDoesNotResurrectThePost() {
        applyAndRefresh(List.of(
                record(0, key(5), DebeziumEvents.created(5, "five", "body")),
                record(1, key(5), DebeziumEvents.updated(5, "five edited", "body", 2)),
                record(2, key(5), DebeziumEvents.softDeleted(5, 3))));

        PostChangeApplier.BatchResult late = applier.apply(List.of(
                record(3, key(5), DebeziumEvents.updated(5, "five edited", "body", 2)),
                record(4, key(5), DebeziumEvents.created(5, "five", "body"))));
        index.writer().refresh();

        assertThat(late.stale()).isEqualTo(2);
        assertThat(index.snapshot().docs()).isEmpty();
        assertThat(index.writer().tombstoneCount()).isEqualTo(1);
    }

    @Test
    void lateOlderUpsertAfterAHardDeleteAndItsKafkaTombstoneDoesNotResurrectThePost() {
        applyAndRefresh(List.of(
                record(0, key(6), DebeziumEvents.created(6, "six", "body")),
                record(1, key(6), DebeziumEvents.hardDeleted(6)),
                record(2, key(6), null)));

        IndexSnapshot snapshot = applyAndRefresh(List.of(record(3, key(6), DebeziumEvents.created(6, "six", "body"))));

        assertThat(snapshot.docs()).isEmpty();
    }
}
