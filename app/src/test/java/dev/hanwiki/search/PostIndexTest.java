package dev.hanwiki.search;

import static dev.hanwiki.search.PostDocuments.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PostIndexTest {

    @TempDir
    Path dir;

    private static final long NOW = 1_763_694_000_000L;

    private PostIndex index;

    @BeforeEach
    void open() throws IOException {
        index = openIndex();
    }

    @AfterEach
    void close() throws IOException {
        index.close();
    }

    private static final long COUNTER_WRITE_MILLIS = SearchSettings.at(Path.of("unused")).counterWriteInterval().toMillis();

    /** Pages 1 and 2 alike but for page 1's one like, refreshed (its counters written: the first write is due). */
    private void twoEqualPagesTheFirstLiked() {
        index.writer().apply(post(1, "같은 제목", "같은 본문", 2), false);
        index.writer().apply(post(2, "같은 제목", "같은 본문", 2), false);
        index.writer().applyCounters(1, new PostCounters(50, 1, 1));
        index.writer().refresh();
    }

    /** Closes the index and opens it again on a clock that reads {@code now[0]}. */
    private void reopenWith(long[] now) throws IOException {
        index.close();
        Clock clock = new Clock() {
            @Override
            public long millis() {
                return now[0];
            }

            @Override
            public Instant instant() {
                return Instant.ofEpochMilli(now[0]);
            }

            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }
        };
        SearchSettings settings = SearchSettings.at(dir.resolve("index"));
        index = new PostIndex(settings, new SearchAnalysis(settings), clock);
    }

    private PostIndex openIndex() throws IOException {
        return new PostIndex(SearchSettings.at(dir.resolve("index")).withRefreshInterval(Duration.ofMillis(50)));
    }

    /** Every live document as stored, by id. */
    private List<PostDocument> stored() throws IOException {
        IndexSearcher searcher = index.acquire();
        try {
            TopDocs top = searcher.search(new MatchAllDocsQuery(), 100);
            List<PostDocument> docs = new ArrayList<>();
            for (ScoreDoc d : top.scoreDocs) {
                docs.add(PostFields.fromStored(searcher.storedFields().document(d.doc),
                        PostFields.counts(searcher.getIndexReader(), d.doc)));
            }
            docs.sort(Comparator.comparingLong(PostDocument::id));
            return docs;
        } finally {
            index.release(searcher);
        }
    }

    @Test
    void upsertReplacesTheDocumentWithTheSameId() {
        index.writer().upsert(post(1, "first", "one", 1));
        index.writer().upsert(post(1, "second", "two", 2));
        index.writer().refresh();

        IndexSnapshot snapshot = index.snapshot();
        assertThat(snapshot.numDocs()).isEqualTo(1);
        assertThat(snapshot.docs()).containsExactly(new DocVersion(1, 2));
    }

    @Test
    void aPageNewToTheIndexAnnouncesItsTermsAndAnEditOrAReplayDoesNot() {
        PostIndexWriter writer = index.writer();
        PostIndexWriter.Applied created = writer.apply(post(3, "경복궁", "서울의 궁궐", 1), false);
        assertThat(created.addedTerms()).isNotNull();
        assertThat(created.addedTerms().contains(SearchTerms.hash(new org.apache.lucene.index.Term(PostFields.TITLE, "경복궁")))).isTrue();
        assertThat(created.addedTerms().contains(SearchTerms.hash(new org.apache.lucene.index.Term(PostFields.CONTENT, "서울")))).isTrue();
        assertThat(created.addedTerms().contains(SearchTerms.hash(new org.apache.lucene.index.Term(PostFields.CONTENT, "남산")))).isFalse();
        assertThat(writer.apply(post(3, "경복궁", "서울의 궁궐과 남산", 2), false).addedTerms()).as("an edit").isNull();
        assertThat(writer.apply(post(3, "경복궁", "서울의 궁궐", 1), false).addedTerms()).as("a replay").isNull();
        PostDocument other = post(4, "남산", "서울의 산", 1);
        assertThat(writer.apply(other, false, () -> writer.analyze(other)).addedTerms())
                .isEqualTo(writer.analyze(other).termHashes());
    }

    @Test
    void olderVersionDoesNotReplaceNewerDocument() throws IOException {
        assertThat(index.writer().upsert(post(7, "new title", "new", 5))).isEqualTo(PostIndexWriter.Outcome.APPLIED);
        index.writer().refresh();

        assertThat(index.writer().upsert(post(7, "old title", "old", 4))).isEqualTo(PostIndexWriter.Outcome.STALE);
        index.writer().refresh();

        assertThat(index.snapshot().docs()).containsExactly(new DocVersion(7, 5));
        assertThat(stored()).extracting(PostDocument::title).containsExactly("new title");
    }

    @Test
    void olderVersionIsIgnoredEvenBeforeTheNewerOneWasRefreshed() {
        index.writer().upsert(post(7, "v3", "x", 3));
        assertThat(index.writer().upsert(post(7, "v2", "x", 2))).isEqualTo(PostIndexWriter.Outcome.STALE);
        index.writer().refresh();

        assertThat(index.snapshot().docs()).containsExactly(new DocVersion(7, 3));
    }

    @Test
    void sameVersionIsReindexedWhenThePopularityBucketChanges() throws IOException {
        index.writer().upsert(post(3, "t", "c", 2));
        PostDocument liked = new PostDocument(3, "t", "c", null, 1, 10, 4, PostDocuments.CREATED, PostDocuments.CREATED, 2);
        assertThat(index.writer().upsert(liked)).isEqualTo(PostIndexWriter.Outcome.APPLIED);
        index.writer().refresh();

        PostDocument stored = stored().getFirst();
        assertThat(stored.likeCount()).isEqualTo(4);
        assertThat(stored.viewCount()).isEqualTo(10);
    }

    @Test
    void likeThatLeavesThePopularityBucketUnchangedDoesNotRewriteTheDocument() throws IOException {
        PostDocument popular = new PostDocument(3, "t", "c", null, 1, 10_000, 200, PostDocuments.CREATED, PostDocuments.CREATED, 2);
        index.writer().upsert(popular);
        index.writer().refresh();
        int maxDocBefore = index.docCounts().maxDoc();

        PostDocument oneMoreLike = new PostDocument(3, "t", "c", null, 1, 10_000, 201, PostDocuments.CREATED, PostDocuments.CREATED, 2);
        assertThat(index.writer().upsert(oneMoreLike)).isEqualTo(PostIndexWriter.Outcome.UNCHANGED);
        index.writer().refresh();

        assertThat(index.docCounts().maxDoc()).isEqualTo(maxDocBefore); // no delete + re-add happened
        assertThat(stored().getFirst().likeCount()).isEqualTo(200);
    }

    /**
     * The names of the index's segments as the current searcher sees them: a counter change
     * written as a doc-values update keeps them; re-adding the document (analysing it again)
     * flushes it into a new segment.
     */
    static java.util.Set<String> segmentNames(PostIndex index) {
        org.apache.lucene.search.IndexSearcher searcher = index.acquire();
        try {
            java.util.Set<String> names = new java.util.TreeSet<>();
            for (org.apache.lucene.index.LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
                names.add(((org.apache.lucene.index.SegmentReader) org.apache.lucene.index.FilterLeafReader.unwrap(leaf.reader()))
                        .getSegmentName());
            }
            return names;
        } finally {
            index.release(searcher);
        }
    }

    /** Ids in ranking order when only popularity tells the documents apart. */
    private List<Long> byPopularity() throws IOException {
        IndexSearcher searcher = index.acquire();
        try {
            org.apache.lucene.search.Query query = new org.apache.lucene.search.BooleanQuery.Builder()
                    .add(new MatchAllDocsQuery(), org.apache.lucene.search.BooleanClause.Occur.MUST)
                    .add(Ranking.popularity(), org.apache.lucene.search.BooleanClause.Occur.SHOULD)
                    .build();
            List<Long> ids = new ArrayList<>();
            for (ScoreDoc d : searcher.search(query, 10).scoreDocs) {
                ids.add(Long.parseLong(searcher.storedFields().document(d.doc).get(PostFields.ID)));
            }
            return ids;
        } finally {
            index.release(searcher);
        }
    }

    @Test
    void counterChangeMovesTheRankingInPlaceWithoutReindexingThePage() throws IOException {
        long[] now = {NOW};
        reopenWith(now);
        twoEqualPagesTheFirstLiked();
        assertThat(byPopularity()).containsExactly(1L, 2L);
        int maxDoc = index.docCounts().maxDoc();
        java.util.Set<String> segments = segmentNames(index);

        assertThat(index.writer().applyCounters(2, new PostCounters(5_000, 300, 4)).outcome()).isEqualTo(PostIndexWriter.Outcome.APPLIED);
        now[0] += COUNTER_WRITE_MILLIS;
        index.writer().refresh();

        assertThat(byPopularity()).containsExactly(2L, 1L);
        assertThat(index.docCounts().maxDoc()).isEqualTo(maxDoc); // updated in place, not deleted and added again
        assertThat(segmentNames(index)).isEqualTo(segments); // no new segment: the page was not analysed again
        assertThat(stored()).extracting(PostDocument::likeCount).containsExactly(1L, 300L);
    }

    /**
     * Counter changes are held and written together (a refresh after a doc-values update
     * rewrites the field's column in every segment it touches): searches see them after the
     * counter-write interval, the writer's own decisions at once, refreshes in between or not.
     */
    @Test
    void heldCounterChangesAreWrittenTogetherAndDecisionsSeeThemMeanwhile() throws IOException {
        long[] now = {NOW};
        reopenWith(now);
        twoEqualPagesTheFirstLiked();
        assertThat(byPopularity()).containsExactly(1L, 2L);

        PostIndexWriter.Applied moved = index.writer().applyCounters(2, new PostCounters(5_000, 300, 4));
        assertThat(moved.outcome()).isEqualTo(PostIndexWriter.Outcome.APPLIED);
        assertThat(moved.held()).as("said to be held: the search cache keeps its answers until the write").isTrue();
        now[0] += COUNTER_WRITE_MILLIS - 1;
        index.writer().refresh();

        assertThat(byPopularity()).as("held until the interval has passed").containsExactly(1L, 2L);
        // The refresh emptied the writer's view of unrefreshed writes; the held counters still decide.
        assertThat(index.writer().applyCounters(2, new PostCounters(10, 0, 3)).outcome()).isEqualTo(PostIndexWriter.Outcome.STALE);
        assertThat(index.writer().applyCounters(2, new PostCounters(5_001, 300, 5)).outcome()).isEqualTo(PostIndexWriter.Outcome.UNCHANGED);

        now[0] += 1;
        index.writer().refresh();
        assertThat(byPopularity()).containsExactly(2L, 1L);
    }

    /** On a quiet stack (no batch, so no blocking refresh) the background refresher writes them when due. */
    @Test
    void theBackgroundRefresherWritesHeldCounterChangesWhenDue() throws IOException {
        long[] now = {NOW};
        reopenWith(now);
        twoEqualPagesTheFirstLiked();
        index.writer().applyCounters(2, new PostCounters(5_000, 300, 4));

        now[0] += COUNTER_WRITE_MILLIS - 1;
        index.refreshIfDue();
        assertThat(byPopularity()).containsExactly(1L, 2L);
        now[0] += 1;
        assertThat(index.refreshIfDue()).isTrue();
        assertThat(byPopularity()).containsExactly(2L, 1L);
    }

    /**
     * The commit that records a counter change's offsets holds the change, written or not: held
     * ones travel in its user data, and an index opened from it holds them again.
     */
    @Test
    void aCommitRecordsHeldCounterChangesAndTheReopenedIndexHoldsThemAgain() throws IOException {
        long[] now = {NOW};
        reopenWith(now);
        twoEqualPagesTheFirstLiked();
        index.writer().applyCounters(2, new PostCounters(5_000, 300, 4));
        index.writer().commit(Map.of("kafka.t.0", "7"));
        index.closeWithoutCommit(); // what a kill -9 after the commit leaves

        index = openIndex();
        assertThat(index.writer().applyCounters(2, new PostCounters(10, 0, 3)).outcome()).isEqualTo(PostIndexWriter.Outcome.STALE);
        index.writer().refresh(); // the first refresh after opening writes what is held
        assertThat(byPopularity()).containsExactly(2L, 1L);
        assertThat(index.committedUserData()).containsKey(UnwrittenCounters.KEY);
        index.writer().commit(Map.of("kafka.t.0", "8"));
        assertThat(index.committedUserData()).as("nothing held any more").doesNotContainKey(UnwrittenCounters.KEY);
    }

    @Test
    void counterChangeIsAppliedOnlyIfItsRowVersionIsNewer() {
        index.writer().apply(post(1, "t", "c", 2), false);
        index.writer().applyCounters(1, new PostCounters(5_000, 300, 8));

        assertThat(index.writer().applyCounters(1, new PostCounters(10, 0, 7)).outcome()).isEqualTo(PostIndexWriter.Outcome.STALE);
        assertThat(index.writer().applyCounters(1, new PostCounters(10, 0, 8)).outcome()).isEqualTo(PostIndexWriter.Outcome.STALE);
        assertThat(index.writer().applyCounters(1, new PostCounters(5_001, 300, 9)).outcome()).isEqualTo(PostIndexWriter.Outcome.UNCHANGED);
        assertThat(index.writer().applyCounters(1, new PostCounters(10, 0, 10)).outcome()).isEqualTo(PostIndexWriter.Outcome.APPLIED);
    }

    @Test
    void sameBucketCheckAlsoSeesWritesNotYetRefreshed() {
        PostDocument popular = new PostDocument(3, "t", "c", null, 1, 10_000, 200, PostDocuments.CREATED, PostDocuments.CREATED, 2);
        index.writer().upsert(popular);
        PostDocument again = new PostDocument(3, "t", "c", null, 1, 10_001, 200, PostDocuments.CREATED, PostDocuments.CREATED, 2);

        assertThat(index.writer().upsert(again)).isEqualTo(PostIndexWriter.Outcome.UNCHANGED);
    }

    @Test
    void bulkModeDefersRefreshesUntilItEnds() {
        index.writer().bulkMode(true);
        index.writer().refresh(); // the first refresh after opening may still happen; then they are throttled
        index.writer().upsert(post(1, "a", "a", 1));
        index.writer().refresh();

        assertThat(index.docCounts().numDocs()).isZero();

        index.writer().bulkMode(false);

        assertThat(index.docCounts().numDocs()).isEqualTo(1);
    }

    /** The background refresher in bulk mode: once per 5 s, not at every tick once 5 s have passed (issue 18). */
    @Test
    void backgroundRefreshesInBulkModeComeAtMostEveryFiveSeconds() throws IOException {
        long[] now = {NOW};
        reopenWith(now);
        index.writer().bulkMode(true);

        int refreshes = 0;
        for (int tick = 1; tick <= 200; tick++) { // 20 s of 100 ms ticks
            now[0] += 100;
            index.writer().upsert(post(tick, "t" + tick, "c", 1));
            refreshes += index.refreshIfDue() ? 1 : 0;
        }

        assertThat(refreshes).isBetween(3, 4);
        assertThat(index.docCounts().numDocs()).isBetween(150, 200);
    }

    @Test
    void bulkModeRecordsOffsetsAndCommitsThemAtClose() throws IOException {
        index.writer().commit(Map.of("kafka.t.0", "1"));
        index.writer().bulkMode(true);
        index.writer().upsert(post(1, "a", "a", 1));
        index.writer().commit(Map.of("kafka.t.0", "2"));

        assertThat(index.committedUserData()).containsEntry("kafka.t.0", "1"); // commit deferred
        index.close();
        index = openIndex();

        assertThat(index.committedUserData()).containsEntry("kafka.t.0", "2");
        assertThat(index.snapshot().docs()).containsExactly(new DocVersion(1, 1));
    }

    @Test
    void deleteRemovesTheDocument() {
        index.writer().upsert(post(1, "a", "a", 1));
        index.writer().upsert(post(2, "b", "b", 1));
        index.writer().refresh();

        index.writer().delete(1, OptionalLong.of(2), NOW);
        index.writer().delete(99, OptionalLong.empty(), NOW); // absent ids are fine
        index.writer().refresh();

        assertThat(index.snapshot().docs()).containsExactly(new DocVersion(2, 1));
        assertThat(index.docCounts().numDocs()).isEqualTo(1);
    }

    @Test
    void deleteTombstoneRefusesUpsertsUpToTheDeletedVersionBeforeAndAfterRefresh() {
        index.writer().upsert(post(1, "a", "a", 1));
        assertThat(index.writer().delete(1, OptionalLong.of(2), NOW)).isEqualTo(PostIndexWriter.Outcome.APPLIED);

        assertThat(index.writer().upsert(post(1, "a", "a", 1))).isEqualTo(PostIndexWriter.Outcome.STALE);
        index.writer().refresh();
        assertThat(index.writer().upsert(post(1, "a", "a", 2))).isEqualTo(PostIndexWriter.Outcome.STALE);
        assertThat(index.writer().upsert(post(1, "a", "a", 1))).isEqualTo(PostIndexWriter.Outcome.STALE);
        index.writer().refresh();

        assertThat(index.snapshot().docs()).isEmpty();
        assertThat(index.visibleVersions(List.of(1L))).isEmpty();
        assertThat(index.docCounts().numDocs()).isZero();
        assertThat(index.writer().tombstoneCount()).isEqualTo(1);
    }

    @Test
    void tombstonesAreInvisibleToSearchesCountsAndSnapshots() throws IOException {
        index.writer().upsert(post(1, "경복궁 산책", "북촌", 1));
        index.writer().upsert(post(2, "경복궁 야간", "개장", 1));
        index.writer().delete(1, OptionalLong.of(2), NOW);
        index.writer().refresh();

        IndexSearcher searcher = index.acquire();
        try {
            assertThat(searcher.count(new MatchAllDocsQuery())).isEqualTo(1);
            assertThat(searcher.getIndexReader().numDocs()).isEqualTo(1);
        } finally {
            index.release(searcher);
        }
        assertThat(index.snapshot().docs()).containsExactly(new DocVersion(2, 1));
    }

    @Test
    void newerVersionAfterADeleteReplacesTheTombstone() {
        index.writer().delete(1, OptionalLong.of(2), NOW);
        index.writer().refresh();

        assertThat(index.writer().upsert(post(1, "back", "again", 3))).isEqualTo(PostIndexWriter.Outcome.APPLIED);
        index.writer().refresh();

        assertThat(index.snapshot().docs()).containsExactly(new DocVersion(1, 3));
        assertThat(index.writer().tombstoneCount()).isZero();
    }

    @Test
    void deleteOlderThanTheLiveDocumentIsStaleAndOneTheTombstoneCoversIsUnchanged() {
        index.writer().upsert(post(1, "a", "a", 5));
        assertThat(index.writer().delete(1, OptionalLong.of(4), NOW)).isEqualTo(PostIndexWriter.Outcome.STALE);
        assertThat(index.writer().delete(1, OptionalLong.of(6), NOW)).isEqualTo(PostIndexWriter.Outcome.APPLIED);
        assertThat(index.writer().delete(1, OptionalLong.empty(), NOW)).isEqualTo(PostIndexWriter.Outcome.UNCHANGED);
        assertThat(index.writer().delete(1, OptionalLong.of(6), NOW)).isEqualTo(PostIndexWriter.Outcome.UNCHANGED);
        index.writer().refresh();

        assertThat(index.writer().upsert(post(1, "a", "a", 6))).isEqualTo(PostIndexWriter.Outcome.STALE);
        assertThat(index.snapshot().docs()).isEmpty();
    }

    @Test
    void versionlessDeleteCoversTheVersionTheIndexHolds() {
        index.writer().upsert(post(1, "a", "a", 3));
        index.writer().refresh();

        index.writer().delete(1, OptionalLong.empty(), NOW);

        assertThat(index.writer().upsert(post(1, "a", "a", 3))).isEqualTo(PostIndexWriter.Outcome.STALE);
        assertThat(index.writer().upsert(post(1, "a", "a", 4))).isEqualTo(PostIndexWriter.Outcome.APPLIED);
    }

    @Test
    void tombstonesSurviveCommitAndReopen() throws IOException {
        index.writer().upsert(post(1, "a", "a", 1));
        index.writer().delete(1, OptionalLong.of(2), NOW);
        for (int i = 0; i < 40; i++) {
            index.writer().upsert(post(100 + i, "filler", "page " + i, 1));
            index.writer().commit(Map.of()); // one small segment each: the merge policy merges them
        }
        index.close();
        index = openIndex();

        assertThat(index.writer().upsert(post(1, "a", "a", 2))).isEqualTo(PostIndexWriter.Outcome.STALE);
        assertThat(index.writer().tombstoneCount()).isEqualTo(1);
    }

    @Test
    void purgeForgetsOnlyTombstonesOfDeletesBeforeTheCutoff() {
        index.writer().delete(1, OptionalLong.of(2), NOW - 10_000);
        index.writer().delete(2, OptionalLong.of(2), NOW);

        assertThat(index.writer().purgeTombstones(NOW - 5_000)).isEqualTo(1);

        assertThat(index.writer().tombstoneCount()).isEqualTo(1);
        assertThat(index.writer().upsert(post(2, "b", "b", 1))).isEqualTo(PostIndexWriter.Outcome.STALE);
        assertThat(index.writer().upsert(post(1, "a", "a", 1))).isEqualTo(PostIndexWriter.Outcome.APPLIED);
    }

    @Test
    void deleteAlreadyOlderThanTheCutoffLeavesNoTombstone() {
        index.writer().purgeTombstones(NOW - 5_000);
        index.writer().upsert(post(1, "a", "a", 1));

        assertThat(index.writer().delete(1, OptionalLong.of(2), NOW - 10_000)).isEqualTo(PostIndexWriter.Outcome.APPLIED);
        index.writer().refresh();

        assertThat(index.snapshot().docs()).isEmpty();
        assertThat(index.writer().tombstoneCount()).isZero();
    }

    @Test
    void closeWithoutCommitLeavesOnlyWhatWasCommitted() throws IOException {
        index.writer().upsert(post(1, "a", "a", 1));
        index.writer().commit(Map.of("kafka.t.0", "1"));
        index.writer().upsert(post(2, "b", "b", 1));
        index.writer().delete(1, OptionalLong.of(2), NOW);
        index.writer().commit(Map.of("kafka.t.0", "3"));
        index.writer().upsert(post(3, "c", "c", 1)); // never committed: lost with the "crash"

        index.closeWithoutCommit();
        index = openIndex();

        assertThat(index.snapshot().docs()).containsExactly(new DocVersion(2, 1));
        assertThat(index.writer().tombstoneCount()).isEqualTo(1);
        assertThat(index.committedUserData()).containsEntry("kafka.t.0", "3");
    }

    @Test
    void storedFieldsRoundTripIncludingMicrosecondTimestampsAndNullCategory() throws IOException {
        PostDocument original = new PostDocument(42, "제목", "본문", null, 9, 100, 7,
                PostDocuments.CREATED, PostDocuments.CREATED.plusNanos(1_000), 3);
        index.writer().upsert(original);
        index.writer().refresh();

        assertThat(stored()).containsExactly(original);
    }

    @Test
    void newIndexHasNoCommittedUserData() {
        assertThat(index.committedUserData()).isEmpty();
    }

    @Test
    void committedUserDataAndDocumentsSurviveCloseAndReopen() throws IOException {
        index.writer().upsert(post(1, "a", "a", 1));
        index.writer().upsert(post(2, "b", "b", 4));
        index.writer().commit(Map.of("kafka.hanwiki.hanwiki.posts.0", "17"));
        index.close();

        index = openIndex();

        assertThat(index.committedUserData()).isEqualTo(
                Map.of("kafka.hanwiki.hanwiki.posts.0", "17", PostIndex.FORMAT_KEY, PostIndex.FORMAT));
        assertThat(index.snapshot().docs()).containsExactly(new DocVersion(1, 1), new DocVersion(2, 4));
    }

    @Test
    void anIndexOfAnotherFormatIsStartedAfreshSoTheNodeRebuildsIt() throws IOException {
        index.writer().upsert(post(1, "a", "a", 1));
        index.writer().commit(Map.of("kafka.t.0", "17"));
        index.close();
        // An index as an older build left it: same offsets, another schema version.
        try (var directory = org.apache.lucene.store.FSDirectory.open(dir.resolve("index"));
             var writer = new org.apache.lucene.index.IndexWriter(directory, new org.apache.lucene.index.IndexWriterConfig())) {
            writer.setLiveCommitData(Map.of("kafka.t.0", "17", PostIndex.FORMAT_KEY, "1").entrySet());
            writer.commit();
        }

        index = openIndex();

        assertThat(index.committedUserData()).as("no offsets: the consumer replays from the start").isEmpty();
        assertThat(index.snapshot().docs()).isEmpty();
    }

    @Test
    void laterCommitReplacesEarlierUserData() throws IOException {
        index.writer().commit(Map.of("kafka.t.0", "5", "kafka.t.1", "3"));
        index.writer().commit(Map.of("kafka.t.0", "9"));
        index.close();

        index = openIndex();

        assertThat(index.committedUserData()).isEqualTo(Map.of("kafka.t.0", "9", PostIndex.FORMAT_KEY, PostIndex.FORMAT));
    }

    @Test
    void backgroundRefreshMakesWritesSearchableWithoutAnExplicitRefresh() throws Exception {
        IndexRefresher refresher = new IndexRefresher(index,
                SearchSettings.at(dir.resolve("index")).withRefreshInterval(Duration.ofMillis(50)));
        refresher.start();
        try {
            index.writer().upsert(post(5, "background", "x", 1));

            long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (index.docCounts().numDocs() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }

            assertThat(index.docCounts().numDocs()).isEqualTo(1);
        } finally {
            refresher.stop();
        }
        assertThat(refresher.isRunning()).isFalse();
    }

    @Test
    void snapshotListsLiveDocumentsInIdOrderWithTheirVersions() {
        index.writer().upsert(post(30, "c", "c", 2));
        index.writer().upsert(post(10, "a", "a", 1));
        index.writer().upsert(post(20, "b", "b", 7));
        index.writer().refresh();

        IndexSnapshot snapshot = index.snapshot();

        assertThat(snapshot.docs()).isEqualTo(List.of(new DocVersion(10, 1), new DocVersion(20, 7), new DocVersion(30, 2)));
        assertThat(snapshot.numDocs()).isEqualTo(3);
        assertThat(snapshot.maxDoc()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void closeTwiceIsHarmlessAndReportsClosed() throws IOException {
        index.close();
        index.close();

        assertThat(index.isOpen()).isFalse();
    }

    @Test
    void aPreAnalysedUpsertIsStoredAndFoundLikeAPlainOne() throws IOException {
        PostDocument post = post(1, "서울 여행", "서울의 궁궐과 시장을 걷는다", 1);

        PostIndexWriter.Applied applied = index.writer().apply(post, true, () -> index.writer().analyze(post));
        index.writer().refresh();

        assertThat(applied.outcome()).isEqualTo(PostIndexWriter.Outcome.APPLIED);
        assertThat(stored()).containsExactly(post);
        SearchEngine engine = new SearchEngine(index, index.analysis(), Categories.of(Map.of()), Clock.systemUTC());
        assertThat(engine.search(new SearchRequest("궁궐", null, 0, 10)).hits()).extracting(h -> h.post().id()).containsExactly(1L);
    }

    @Test
    void tokensAreAskedForOnlyWhenTheDocumentIsWrittenAndAFailureChangesNothing() throws IOException {
        PostDocument first = post(1, "t", "본문", 2);
        index.writer().apply(first, false, () -> index.writer().analyze(first));
        index.writer().applyCounters(2, new PostCounters(5_000, 300, 4)); // waits for post 2

        // Stale and same-version changes never ask for tokens.
        PostIndexWriter.Applied stale = index.writer().apply(post(1, "old", "x", 1), false, () -> {
            throw new AssertionError("a stale change needs no tokens");
        });
        PostIndexWriter.Applied same = index.writer().apply(first, false, () -> {
            throw new AssertionError("a same-version change is counters only");
        });
        // A failed analysis is thrown before anything changes: the early counters still wait.
        PostDocument second = post(2, "two", "둘", 1);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> index.writer().apply(second, false, () -> {
            throw new IllegalStateException("analysis failed");
        })).hasMessage("analysis failed");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> index.writer().apply(second, false, () -> index.writer().analyze(first)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("post 1 v2");
        index.writer().refresh();

        assertThat(stale.outcome()).isEqualTo(PostIndexWriter.Outcome.STALE);
        assertThat(same.outcome()).isEqualTo(PostIndexWriter.Outcome.UNCHANGED);
        assertThat(index.snapshot().docs()).containsExactly(new DocVersion(1, 2));
        assertThat(index.writer().pendingCounters()).isEqualTo(1);
        assertThat(index.writer().apply(second, false, () -> index.writer().analyze(second)).counters().likes()).isEqualTo(300);
    }
}
