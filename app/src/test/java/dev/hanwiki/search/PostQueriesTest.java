package dev.hanwiki.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PostQueriesTest {

    @TempDir
    static Path dir;

    private static PostIndex index;

    @BeforeAll
    static void open() throws IOException {
        index = new PostIndex(new SearchSettings(dir, Duration.ofMillis(100)));
        index.upsert(PostDocuments.post(1, "안녕하세요 hello", "a \"quoted\" body (with) +operators -and* symbols|~", 1));
        index.refresh();
    }

    @AfterAll
    static void close() throws IOException {
        index.close();
    }

    static Stream<String> hostileInputs() {
        return Stream.of(
                "\"", "\"unbalanced", "((((", "))))", "(\"", "-", "+", "|", "*", "~", "~2", "\\", "\\\\\\",
                "a~10000", "hello~", "\"a b\"~99999", "-hello", "--hello", "+-+-", "a* b* c* d*", "*:*", "title:x",
                "AND OR NOT", "&& || !", "{[}]", "/regex/", "<script>alert(1)</script>", "'; DROP TABLE posts; --",
                "😀😃😄", "\uD83D", "\u0000\u0001\u0002", "\t\n\r", "\u200B\u200B", "ﾟ･✿ヾ╲(｡◕‿◕｡)╱✿･ﾟ",
                "!@#$%^&*()_+=-`~[]{};':\",./<>?".repeat(10),
                "(".repeat(1000),
                "\"".repeat(999),
                "a ".repeat(500),
                "대한민국 ".repeat(200),
                "x".repeat(1000),
                ".,;:!?".repeat(1700)); // ~10 KB of punctuation
    }

    @ParameterizedTest
    @MethodSource("hostileInputs")
    void hostileInputNeverThrowsWhenParsedOrSearched(String text) {
        assertThatCode(() -> {
            Optional<Query> query = PostQueries.parse(index.analyzer(), text);
            if (query.isPresent()) {
                try {
                    index.search(PostQueries.inCategory(query.get(), 3L), 0, 10);
                    index.search(query.get(), 0, 10);
                } catch (IndexSearcher.TooManyClauses tooMany) {
                    // SearchService maps this to an empty page; anything else would be a bug.
                }
            }
        }).doesNotThrowAnyException();
    }

    @Test
    void punctuationOnlyInputHasNothingToSearch() {
        assertThat(PostQueries.parse(index.analyzer(), ".,;:!?".repeat(1700))).isEmpty();
        assertThat(PostQueries.parse(index.analyzer(), "\"")).isEmpty();
        assertThat(PostQueries.parse(index.analyzer(), "   ")).isEmpty();
    }

    @Test
    void unbalancedQuoteStillFindsTheWord() throws IOException {
        Query query = PostQueries.parse(index.analyzer(), "\"hello").orElseThrow();

        assertThat(index.search(query, 0, 10).hits()).extracting(PostDocument::id).containsExactly(1L);
    }

    @Test
    void fuzzyOperatorIsTreatedAsPlainText() throws IOException {
        // With fuzzy matching on, "hellp~1" would match "hello"; it is disabled on purpose.
        Query query = PostQueries.parse(index.analyzer(), "hellp~1").orElseThrow();

        assertThat(index.search(query, 0, 10).hits()).isEmpty();
    }
}
