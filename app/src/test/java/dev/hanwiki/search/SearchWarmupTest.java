package dev.hanwiki.search;

import static dev.hanwiki.search.PostDocuments.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.hanwiki.lifecycle.ThreadNiceness;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Status;
import tools.jackson.databind.json.JsonMapper;

/** The warm-up's words (from the index itself, held by at least two pages, letters only) and its priority. */
class SearchWarmupTest {

    @TempDir
    Path dir;

    private PostIndex open() throws Exception {
        return new PostIndex(SearchSettings.at(dir.resolve("index")).withRefreshInterval(Duration.ofMillis(50)));
    }

    @Test
    void wordsComeFromTheIndexAndAtLeastTwoPagesHoldEach() throws Exception {
        try (PostIndex index = open()) {
            assertThat(SearchWarmup.words(index, 10)).as("an empty index: nothing to warm with").isEmpty();
            index.writer().apply(post(1, "서울 여행", "경복궁 근처 맛집 2024년", 1), false);
            index.writer().apply(post(2, "부산 여행", "해운대 근처 맛집 2024년", 1), false);
            index.writer().apply(post(3, "제주", "한라산 등반", 1), false);
            index.writer().refresh();

            List<String> words = SearchWarmup.words(index, 10);
            assertThat(words).isNotEmpty().doesNotHaveDuplicates()
                    .allSatisfy(w -> assertThat(w.codePoints().allMatch(Character::isLetter)).as(w).isTrue());
            IndexSearcher searcher = index.acquire();
            try {
                for (String word : words) {
                    assertThat(searcher.count(new TermQuery(new Term(PostFields.CONTENT, word)))).as(word).isGreaterThanOrEqualTo(2);
                }
            } finally {
                index.release(searcher);
            }
            assertThat(words).contains("근처").doesNotContain("경복궁", "한라산");
            assertThat(SearchWarmup.words(index, 1)).hasSize(1);
        }
    }

    /** The system clock, noting the nice value of every warm-up thread that reads it (the search loop does, per search). */
    private static final class NicenessClock extends Clock {
        final Set<Integer> seen = ConcurrentHashMap.newKeySet();

        @Override
        public long millis() {
            if (Thread.currentThread().getName().startsWith("search-warmup")) {
                seen.add(ThreadNiceness.ofThisThread());
            }
            return System.currentTimeMillis();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void theSearchesRunAtTheConfiguredNicenessOnThisHost() throws Exception {
        assumeThat(ThreadNiceness.readable()).as("Linux only").isTrue();
        assumeThat(ThreadNiceness.ofThisThread()).as("the test JVM runs below the niceness under test").isLessThan(7);
        try (PostIndex index = open()) {
            index.writer().apply(post(1, "서울 여행", "경복궁 근처 맛집", 1), false);
            index.writer().apply(post(2, "부산 여행", "해운대 근처 맛집", 1), false);
            index.writer().refresh();
            Categories categories = Categories.of(Map.of());
            // No replica here: each search's hit details fail, which the warm-up rides out.
            SearchService search = new SearchService(new SearchEngine(index, index.analysis(), categories, Clock.systemUTC()),
                    categories, new HitDetails(null), null, new SearchLatency(new SimpleMeterRegistry()));
            NicenessClock clock = new NicenessClock();
            SearchWarmup warmup = new SearchWarmup(new SearchWarmupSettings(20, Duration.ofSeconds(20), 7), index, search,
                    JsonMapper.builder().build(), clock);
            warmup.start();
            try {
                long until = System.currentTimeMillis() + 10_000;
                while (warmup.health().getStatus() != Status.UP && System.currentTimeMillis() < until) {
                    Thread.sleep(20);
                }
                assertThat(warmup.health().getStatus()).isEqualTo(Status.UP);
                assertThat(warmup.health().getDetails()).containsEntry("searches", 20);
                assertThat(clock.seen).as("the nice values the warm-up's searches ran at").containsExactly(7);
            } finally {
                warmup.stop();
            }
        }
    }
}
