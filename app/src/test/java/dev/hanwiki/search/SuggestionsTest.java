package dev.hanwiki.search;

import static dev.hanwiki.search.PostDocuments.popular;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Did-you-mean at jamo level, keyboard-layout rescue, and when neither applies. */
class SuggestionsTest {

    @TempDir
    static Path dir;

    private static TestSearch search;

    @BeforeAll
    static void open() throws IOException {
        Instant t = Instant.parse("2024-01-01T00:00:00Z");
        search = TestSearch.open(dir).add(
                popular(1, "경복궁", "조선의 법궁", 7, 500, 10, t),
                popular(2, "경복궁 야간 개장", "경복궁을 밤에 걷다", 26, 100, 1, t),
                popular(3, "경복고등학교", "서울의 고등학교", 6, 10, 0, t),
                popular(4, "안녕", "만날 때 하는 인사말", 21, 50, 2, t),
                popular(5, "안녕하세요 인사법", "안녕은 한국어 인사", 21, 30, 1, t),
                popular(6, "Lucene", "Lucene is a search library", 15, 300, 20, t),
                popular(7, "한국 음식", "김치와 비빔밥", 23, 80, 3, t),
                popular(8, "java", "Java programming language", 15, 200, 5, t));
    }

    @AfterAll
    static void close() throws IOException {
        search.close();
    }

    @Test
    void typoInAFinalConsonantSuggestsTheTitleWord() {
        SearchEngine.Result result = search.search("경복쿵");

        assertThat(result.hits()).isEmpty();
        assertThat(result.suggestion()).isEqualTo("경복궁");
        assertThat(result.rewrittenFrom()).as("a did-you-mean does not replace the query").isNull();
    }

    @Test
    void particleIsKeptAndAdaptedInTheSuggestion() {
        assertThat(search.search("경봌궁에서").suggestion()).isEqualTo("경복궁에서");
        assertThat(search.search("경복쿵을").suggestion()).isEqualTo("경복궁을");
    }

    @Test
    void englishTranspositionIsOneEdit() {
        assertThat(search.search("lucnee").suggestion()).isEqualTo("lucene");
    }

    @Test
    void wrongKeyboardLayoutIsSearchedAsHangulAndReported() {
        SearchEngine.Result result = search.search("dkssud");

        assertThat(result.suggestion()).isEqualTo("안녕");
        assertThat(result.rewrittenFrom()).as("the results are for 안녕, not for what was typed").isEqualTo("dkssud");
        assertThat(result.hits()).extracting(h -> h.post().id()).containsExactlyInAnyOrder(4L, 5L);
    }

    @Test
    void exactSearchIsNeverRescued() {
        SearchEngine.Result result = search.engine.search(new SearchRequest("dkssud", null, 0, 10, true));

        assertThat(result.rewrittenFrom()).as("searched as typed").isNull();
        assertThat(result.suggestion()).as("not even offered: the reader chose the typed text").isNull();
        assertThat(result.hits()).isEmpty();
    }

    @Test
    void knownEnglishWordIsNotReadAsKeystrokes() {
        SearchEngine.Result result = search.search("java");

        assertThat(result.suggestion()).isNull();
        assertThat(result.rewrittenFrom()).isNull();
        assertThat(result.hits()).extracting(h -> h.post().id()).containsExactly(8L);
    }

    @Test
    void queryThatFindsEnoughGetsNoSuggestion() {
        assertThat(search.search("경복궁").suggestion()).isNull();
    }

    @Test
    void nothingNearGivesNoSuggestion() {
        SearchEngine.Result result = search.search("우주정거장");

        assertThat(result.hits()).isEmpty();
        assertThat(result.suggestion()).isNull();
    }
}
