package dev.hanwiki.search;

import static dev.hanwiki.search.PostDocuments.inCategory;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The query language on a handful of pages: phrases, exclusions, intitle:, category:, synonyms, chosung. */
class QueryLanguageTest {

    @TempDir
    static Path dir;

    private static TestSearch search;

    @BeforeAll
    static void open() throws IOException {
        search = TestSearch.open(dir).add(
                inCategory(1, "경복궁", "경복궁은 조선 왕조의 법궁이다. 서울 종로에 있다.", 7),
                inCategory(2, "서울 여행", "서울에서 경복궁과 남산을 둘러보았다.", 26),
                inCategory(3, "조선 왕조", "조선은 왕조 국가였다. 법궁은 경복궁이었다.", 7),
                inCategory(4, "왕조 조선", "왕조가 바뀌며 조선이 세워졌다.", 8),
                inCategory(5, "휴대폰 고르는 법", "새 휴대폰을 사기 전에 배터리를 본다.", 17),
                inCategory(6, "핸드폰 수리", "액정이 깨진 핸드폰을 고쳤다.", 17),
                inCategory(7, "대한민국", "대한민국은 동아시아의 나라이다.", 30),
                inCategory(8, "대한민국 헌법", "헌법은 대한민국의 최고 법이다.", 7),
                inCategory(9, "김치찌개", "김치찌개 끓이는 법", 23),
                inCategory(10, "Artificial intelligence", "Machine learning and AI research.", 16),
                inCategory(11, "인공지능 윤리", "인공지능이 사회에 미치는 영향", 16));
    }

    @AfterAll
    static void close() throws IOException {
        search.close();
    }

    @Test
    void quotedPhraseRequiresTheWordsAdjacentAndInOrder() {
        assertThat(search.ids("조선 왕조")).containsExactlyInAnyOrder(1L, 3L, 4L);
        assertThat(search.ids("\"조선 왕조\"")).containsExactlyInAnyOrder(1L, 3L);
    }

    @Test
    void phraseSurvivesParticlesBetweenItsWords() {
        assertThat(search.ids("\"대한민국의 최고\"")).containsExactly(8L);
    }

    @Test
    void minusExcludesPagesWithTheWord() {
        assertThat(search.ids("경복궁 -서울")).containsExactly(3L);
        assertThat(search.ids("조선 -\"조선 왕조\"")).containsExactly(4L);
    }

    @Test
    void intitleMatchesTheTitleOnly() {
        assertThat(search.ids("intitle:경복궁")).containsExactly(1L);
        assertThat(search.ids("경복궁 -intitle:경복궁")).containsExactlyInAnyOrder(2L, 3L);
    }

    @Test
    void categoryOperatorFiltersByName() {
        assertThat(search.ids("경복궁 category:한국사")).containsExactlyInAnyOrder(1L, 3L);
        assertThat(search.ids("대한민국 category:\"세계 지리\"")).containsExactly(7L);
        assertThat(search.ids("대한민국 category:세계지리")).containsExactly(7L);
        assertThat(search.ids("경복궁 -category:한국사")).containsExactly(2L);
    }

    @Test
    void unknownCategoryMatchesNothing() {
        assertThat(search.ids("경복궁 category:없는분류")).isEmpty();
    }

    @Test
    void categoryAloneListsThatCategory() {
        assertThat(search.ids("category:요리")).containsExactly(9L);
    }

    @Test
    void synonymsFromTheFileExpandTheQuery() {
        assertThat(search.ids("휴대폰")).containsExactlyInAnyOrder(5L, 6L);
        assertThat(search.ids("핸드폰")).containsExactlyInAnyOrder(5L, 6L);
        // The word as typed ranks above its synonym.
        assertThat(search.ids("핸드폰")).first().isEqualTo(6L);
    }

    @Test
    void multiWordSynonymIsAPhrase() {
        assertThat(search.ids("인공지능")).contains(11L, 10L);
        assertThat(search.ids("artificial intelligence")).contains(10L, 11L);
    }

    @Test
    void chosungQueryMatchesTitlesByInitialConsonants() {
        assertThat(search.ids("ㄱㅂㄱ")).containsExactly(1L);
        // The whole title and each title word count; the shorter title ranks first.
        assertThat(search.ids("ㄷㅎㅁㄱ")).containsExactly(7L, 8L);
        assertThat(search.ids("ㄷㅎㅁㄱㅎㅂ")).containsExactly(8L);
    }

    @Test
    void chosungCombinesWithWords() {
        assertThat(search.ids("ㄷㅎㅁㄱ 헌법")).containsExactly(8L);
    }

    @Test
    void threeWordsWithNoPageHoldingAllFallBackToAllButOne() {
        assertThat(search.ids("경복궁 종로 우주선")).containsExactly(1L);
    }
}
