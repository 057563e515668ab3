package dev.hanwiki.cdc;

import static dev.hanwiki.cdc.DebeziumEvents.key;
import static dev.hanwiki.cdc.DebeziumEvents.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hanwiki.search.DocVersion;
import dev.hanwiki.search.IndexComparison;
import dev.hanwiki.search.IndexedTitles;
import dev.hanwiki.search.PostIndex;
import dev.hanwiki.search.SearchSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.lucene.search.IndexSearcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * ADR 0097 through the applier: with the pages of a batch's upserts analysed on two other threads
 * (hanwiki.cdc.analysis-threads=2), the batches give the same outcomes and the same index as with
 * the IndexWriter analysing each page on the indexer thread (analysis-threads=1); a failed
 * analysis fails its batch at its change, like a failed index write.
 */
class ParallelAnalysisTest {

    @TempDir
    Path dir;

    private final Clock clock = Clock.fixed(Instant.parse("2025-11-21T03:00:00Z"), ZoneOffset.UTC);
    private final PostChangeParser parser = new PostChangeParser(JsonMapper.builder().build());
    private final List<String> deadLettered = new ArrayList<>();
    private final Set<String> analysedOn = ConcurrentHashMap.newKeySet();
    private ExecutorService twoThreads;
    private PostIndex oneThread;
    private PostIndex parallel;

    @BeforeEach
    void open() throws IOException {
        twoThreads = Executors.newFixedThreadPool(2, task -> {
            Thread thread = new Thread(task);
            thread.setName("analysis-" + thread.threadId());
            return thread;
        });
        oneThread = new PostIndex(SearchSettings.at(dir.resolve("one")));
        parallel = new PostIndex(SearchSettings.at(dir.resolve("two")));
    }

    @AfterEach
    void close() throws IOException {
        twoThreads.shutdownNow();
        oneThread.close();
        parallel.close();
    }

    private PostChangeApplier applier(PostIndex index) {
        return new PostChangeApplier(index, parser, (poison, reason) -> deadLettered.add(poison.offset() + ": " + reason), clock,
                post -> {
                    analysedOn.add(Thread.currentThread().getName());
                    return index.writer().analyze(post);
                });
    }

    /** Three batches of a busy stretch of the topic: creates, edits, replays, counters, deletes, garbage. */
    private static List<List<ConsumerRecord<String, String>>> batches() {
        return List.of(
                List.of(
                        record(0, key(1), DebeziumEvents.created(1, "경복궁", "경복궁은 1395년 태조 이성계가 세운 조선 왕조의 법궁이다")),
                        record(1, key(2), DebeziumEvents.created(2, "서울 여행", "서울은 대한민국의 수도이며 한강을 사이에 두고 있다")),
                        record(2, key(3), DebeziumEvents.snapshot(3, "Spring Boot 안내", "Spring Boot로 서버를 만든다", 4)),
                        record(3, key(2), DebeziumEvents.updated(2, "서울 여행 안내", "서울의 궁궐과 시장, 그리고 사람의 일", 2)),
                        record(4, key(9), "{not json"),
                        record(5, key(4), DebeziumEvents.created(4, "大韓民國 憲法", "大韓民國은 民主共和國이다")),
                        record(6, key(3), DebeziumEvents.countersUpdated(3, 4)),
                        record(7, key(5), DebeziumEvents.pageUpdated(5, "부산", "부산은 바다가 아름다운 항구 도시입니다", 2)),
                        record(8, DebeziumEvents.counterKey(5), DebeziumEvents.countersChanged(5, 9_000, 400, 3)),
                        record(9, key(4), DebeziumEvents.softDeleted(4, 2))),
                List.of(
                        record(10, key(2), DebeziumEvents.created(2, "서울 여행", "늦게 다시 온 옛 버전")), // stale: v1 < v2
                        record(11, key(4), DebeziumEvents.created(4, "大韓民國", "삭제된 글의 옛 버전")), // stale: tombstone v2
                        record(12, key(1), DebeziumEvents.hardDeleted(1)),
                        record(13, key(1), null),
                        record(14, key(6), DebeziumEvents.created(6, "Hello World", "A title without Hangul; running searches")),
                        record(15, key(5), DebeziumEvents.pageUpdated(5, "부산 바다", "해운대와 광안리, 부산의 바다", 3)),
                        record(16, key(7), DebeziumEvents.created(7, "빈 본문", ""))),
                List.of(
                        record(17, key(3), DebeziumEvents.updated(3, "Spring Boot 4 안내", "Spring Boot 4로 서버를 만든다", 5)),
                        record(18, key(3), DebeziumEvents.updated(3, "Spring Boot 4 안내", "Spring Boot 4로 서버를 만든다", 5)), // duplicate
                        record(19, key(8), DebeziumEvents.created(8, "!!!", "문장 부호뿐인 제목"))));
    }

    @Test
    void batchesAnalysedOnTwoThreadsGiveTheSameOutcomesAndTheSameIndexAsOnOne() throws IOException {
        PostChangeApplier sequential = applier(oneThread);
        PostChangeApplier pooled = applier(parallel);

        for (List<ConsumerRecord<String, String>> batch : batches()) {
            PostChangeApplier.BatchResult expected = sequential.apply(batch);
            PostChangeApplier.BatchResult actual = pooled.apply(batch, twoThreads);
            assertThat(actual).isEqualTo(expected);
            oneThread.writer().refresh();
            parallel.writer().refresh();
        }

        assertThat(analysedOn).as("pages analysed on the other threads only").isNotEmpty().allMatch(name -> name.startsWith("analysis-"));
        assertThat(parallel.snapshot().docs()).isEqualTo(oneThread.snapshot().docs())
                .containsExactly(new DocVersion(2, 2), new DocVersion(3, 5), new DocVersion(5, 3), new DocVersion(6, 1),
                        new DocVersion(7, 1), new DocVersion(8, 1));
        assertThat(IndexedTitles.byId(parallel, 5)).hasValueSatisfying(t -> {
            assertThat(t.title()).isEqualTo("부산 바다");
            assertThat(t.likeCount()).isEqualTo(400);
        });
        assertThat(deadLettered).hasSize(2).allSatisfy(letter -> assertThat(letter).startsWith("4: "));
        IndexSearcher expected = oneThread.acquire();
        IndexSearcher actual = parallel.acquire();
        try {
            assertThat(IndexComparison.firstDifference(expected.getIndexReader(), actual.getIndexReader()))
                    .as("first difference").isNull();
        } finally {
            oneThread.release(expected);
            parallel.release(actual);
        }
    }

    @Test
    void aFailedAnalysisFailsTheBatchAtItsChangeAndTheRetryAppliesIt() {
        PostChangeApplier failing = new PostChangeApplier(parallel, parser, (poison, reason) -> deadLettered.add(reason), clock,
                post -> {
                    if (post.id() == 3) {
                        throw new IllegalStateException("analysis of post 3 failed");
                    }
                    return parallel.writer().analyze(post);
                });
        List<ConsumerRecord<String, String>> batch = List.of(
                record(0, key(1), DebeziumEvents.created(1, "one", "첫 번째 글")),
                record(1, key(2), DebeziumEvents.created(2, "two", "두 번째 글")),
                record(2, key(3), DebeziumEvents.created(3, "three", "세 번째 글")),
                record(3, key(4), DebeziumEvents.created(4, "four", "네 번째 글")),
                record(4, key(1), DebeziumEvents.softDeleted(1, 2)));

        assertThatThrownBy(() -> failing.apply(batch, twoThreads))
                .isInstanceOf(IllegalStateException.class).hasMessage("analysis of post 3 failed");
        parallel.writer().refresh();

        // Applied up to the failed change, nothing after it: the consumer rewinds and retries.
        assertThat(parallel.snapshot().docs()).containsExactly(new DocVersion(1, 1), new DocVersion(2, 1));

        PostChangeApplier.BatchResult retry = applier(parallel).apply(batch, twoThreads);
        parallel.writer().refresh();

        assertThat(retry.applied()).isEqualTo(3);
        assertThat(retry.unchanged()).as("the two already written again at the same version").isEqualTo(2);
        assertThat(parallel.snapshot().docs()).containsExactly(new DocVersion(2, 1), new DocVersion(3, 1), new DocVersion(4, 1));
    }

    @Test
    void aStaleChangeNeverWaitsForItsPagesAnalysisAsNoneWouldHaveBeenDone() {
        applier(parallel).apply(List.of(record(0, key(1), DebeziumEvents.updated(1, "new", "새 글", 5))), twoThreads);
        PostChangeApplier failing = new PostChangeApplier(parallel, parser, (poison, reason) -> { }, clock, post -> {
            throw new IllegalStateException("never asked for: the change is stale");
        });

        PostChangeApplier.BatchResult replay = failing.apply(List.of(record(1, key(1), DebeziumEvents.updated(1, "old", "옛 글", 4))),
                twoThreads);
        parallel.writer().refresh();

        assertThat(replay.stale()).isEqualTo(1);
        assertThat(parallel.snapshot().docs()).containsExactly(new DocVersion(1, 5));
    }
}
