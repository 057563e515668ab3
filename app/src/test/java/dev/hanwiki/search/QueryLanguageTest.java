package dev.hanwiki.search;

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
        search = TestSearch.open(dir).add(PostDocuments.queryLanguagePages().toArray(PostDocument[]::new));
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
