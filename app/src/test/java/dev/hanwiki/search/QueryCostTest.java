package dev.hanwiki.search;

import static dev.hanwiki.search.PostDocuments.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hanwiki.platform.InvalidInputException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one search may cost (ADR 0087): the 32 unknown long words answer in well under
 * 100 ms with the default limits (did-you-mean looks at 4 unknown words at most, within 50 ms),
 * past the caps a query is a clear 400, and a search past its time budget is marked partial.
 */
class QueryCostTest {

    @TempDir
    static Path dir;

    private static TestSearch search;
    private static final Random RANDOM = new Random(13);

    @BeforeAll
    static void open() throws IOException {
        search = TestSearch.open(dir);
        List<PostDocument> posts = new ArrayList<>();
        for (int i = 1; i <= 3000; i++) {
            posts.add(post(i, word(8 + RANDOM.nextInt(8)) + " " + word(6 + RANDOM.nextInt(10)) + " 문서 " + i, "본문 " + word(10), 1));
        }
        search.add(posts.toArray(PostDocument[]::new));
    }

    @AfterAll
    static void close() throws IOException {
        search.close();
    }

    private static String word(int length) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append((char) ('a' + RANDOM.nextInt(26)));
        }
        return sb.toString();
    }

    private static String unknownLongWords() {
        List<String> words = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            words.add(word(14 + RANDOM.nextInt(6)));
        }
        return String.join(" ", words);
    }

    /**
     * CPU milliseconds of one search (it runs on the calling thread): what the search costs the
     * machine, and unlike wall time not inflated by whatever else the machine runs meanwhile.
     */
    private static long millis(SearchEngine engine, String q) {
        long start = CPU.getCurrentThreadCpuTime();
        engine.search(new SearchRequest(q, null, 0, 10));
        return (CPU.getCurrentThreadCpuTime() - start) / 1_000_000;
    }

    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();

    @Test
    void thirtyTwoUnknownLongWordsCostUnder100MillisecondsOfCpu() {
        for (int i = 0; i < 5; i++) {
            millis(search.engine, unknownLongWords()); // warm up
        }
        long worst = 0;
        for (int i = 0; i < 10; i++) {
            worst = Math.max(worst, millis(search.engine, unknownLongWords()));
        }
        SearchEngine unbounded = new SearchEngine(search.index, search.index.analysis(), search.categories,
                Clock.fixed(TestSearch.NOW, ZoneOffset.UTC), new SearchLimits(512, 32, Duration.ofSeconds(30), Duration.ofSeconds(5), 32));
        long unboundedWorst = 0;
        for (int i = 0; i < 10; i++) {
            unboundedWorst = Math.max(unboundedWorst, millis(unbounded, unknownLongWords()));
        }
        System.out.printf("QueryCostTest: 32 unknown long words, worst of 10: %d ms bounded, %d ms with every word corrected%n",
                worst, unboundedWorst);
        assertThat(worst).isLessThan(100);
    }

    @Test
    void aSearchPastItsTimeBudgetIsMarkedPartial() {
        SearchEngine hurried = new SearchEngine(search.index, search.index.analysis(), search.categories,
                Clock.fixed(TestSearch.NOW, ZoneOffset.UTC), new SearchLimits(512, 32, Duration.ofNanos(1), Duration.ofMillis(25), 4));
        SearchEngine.Result result = hurried.search(new SearchRequest("문서", null, 0, 10));
        assertThat(result.partial()).isTrue();
        assertThat(search.search("문서").partial()).isFalse();
        assertThat(search.search("문서").hits()).hasSize(10);
    }

    @Test
    void queriesPastTheCapsAreAClear400() {
        SearchLimits limits = SearchLimits.defaults();
        assertThatThrownBy(() -> limits.check("a".repeat(513))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("at most 512 characters");
        assertThatThrownBy(() -> limits.check("a ".repeat(33))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("at most 32 words (it has 33)");
        limits.check("a ".repeat(32));
        limits.check("경복궁 ".repeat(32).strip());
    }
}
