package dev.hanwiki.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hanwiki.platform.InvalidInputException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Any text at all gets an answer: results or none, never an exception (hence never a 500). */
class QueryRobustnessTest {

    @TempDir
    static Path dir;

    private static TestSearch search;

    @BeforeAll
    static void open() throws IOException {
        search = TestSearch.open(dir).add(
                PostDocuments.inCategory(1, "안녕하세요 hello", "a \"quoted\" body (with) +operators -and* symbols|~ category:요리", 23));
    }

    @AfterAll
    static void close() throws IOException {
        search.close();
    }

    static Stream<String> hostileInputs() {
        return Stream.of(
                "\"", "\"unbalanced", "((((", "))))", "(\"", "-", "+", "|", "*", "~", "~2", "\\", "\\\\\\",
                "a~10000", "hello~", "\"a b\"~99999", "-hello", "--hello", "+-+-", "a* b* c* d*", "*:*", "title:x",
                "AND OR NOT", "&& || !", "{[}]", "/regex/", "<script>alert(1)</script>", "'; DROP TABLE posts; --",
                "😀😃😄", "\uD83D", "\u0000\u0001\u0002", "\u200B\u200B", "ﾟ･✿ヾ╲(｡◕‿◕｡)╱✿･ﾟ",
                "intitle:", "category:", "intitle:\"", "category:\"", "-intitle:", "-category:없는분류", "category:없는분류",
                "intitle:\"\"", "\"\"", "\" \"", "-\"\"", "ㄱ", "ㄷㅎㅁㄱ", "ㅏㅏㅏ", "ㄷㅎㅁㄱ -", "dkssud", "qqqqqq",
                "!@#$%^&*()_+=-`~[]{};':\",./<>?".repeat(10),
                "(".repeat(1000),
                "\"".repeat(999),
                "a ".repeat(500),
                "대한민국 ".repeat(200),
                "x".repeat(1000),
                "intitle:a ".repeat(100),
                "-a ".repeat(300),
                ".,;:!?".repeat(1700)); // ~10 KB of punctuation
    }

    @ParameterizedTest
    @MethodSource("hostileInputs")
    void hostileInputIsAnsweredWithoutAnException(String text) {
        assertThatCode(() -> {
            search.engine.search(new SearchRequest(text, null, 0, 10));
            search.engine.search(new SearchRequest(text, 3L, 0, 10));
            search.respond(text);
        }).doesNotThrowAnyException();
    }

    @Test
    void blankTextIsAClearBadRequestNotAServerError() {
        assertThatThrownBy(() -> new SearchRequest("\t\n\r", null, 0, 10)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> new SearchRequest("x".repeat(SearchRequest.MAX_QUERY_LENGTH + 1), null, 0, 10))
                .isInstanceOf(InvalidInputException.class);
    }

    @Test
    void punctuationOnlyInputHasNothingToSearch() {
        assertThat(search.ids(".,;:!?".repeat(1700))).isEmpty();
        assertThat(search.ids("\"")).isEmpty();
        assertThat(search.ids("-")).isEmpty();
    }

    @Test
    void unbalancedQuoteStillFindsTheWord() {
        assertThat(search.ids("\"hello")).containsExactly(1L);
    }

    @Test
    void fuzzyAndWildcardSyntaxIsPlainText() {
        // No fuzzy or wildcard expansion: one short input must never become thousands of terms.
        assertThat(search.ids("hellp~1")).isEmpty();
        assertThat(search.ids("hel*")).isEmpty();
    }

    @Test
    void loneOperatorsAreIgnored() {
        assertThat(search.ids("hello intitle:")).containsExactly(1L);
        assertThat(search.ids("hello -")).containsExactly(1L);
        assertThat(search.ids("+hello")).containsExactly(1L);
    }

    @Test
    void onlyExclusionsFindNothing() {
        assertThat(search.ids("-hello")).isEmpty();
    }
}
