package dev.hanwiki.search;

import static dev.hanwiki.search.PostDocuments.inCategory;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hanwiki.search.SearchAnalysis.Token;
import dev.hanwiki.search.analysis.CommonGrams;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Phrases through the word pairs of common terms (ADR 0024) find exactly the pages the plain
 * position check finds: the same pages indexed with and without pairs, the same phrases.
 */
class CommonGramsPhraseTest {

    private static final CommonGrams COMMON = CommonGrams.parse("the\nof\n하\n있\n사람\n전자\n조선\n");

    @TempDir
    static Path plainDir;
    @TempDir
    static Path pairedDir;

    private static TestSearch plain;
    private static TestSearch paired;

    @BeforeAll
    static void open() throws IOException {
        PostDocument[] pages = {
            inCategory(1, "The history of Korea", "The quick brown fox jumps over the lazy dog.", 1),
            inCategory(2, "Fox notes", "A quick fox, the brown one, was lazy.", 1),
            inCategory(3, "공부하는 사람", "공부를 하는 사람은 있는 힘을 다한다.", 5),
            inCategory(4, "사람과 공부", "사람은 공부를 하지 않았다. 하는 사람이 있다.", 5),
            inCategory(5, "삼성전자 주가", "삼성전자 주가가 올랐다. 전자 주가는 내렸다.", 3),
            inCategory(6, "조선 왕조", "조선 왕조의 법궁은 경복궁이다. 왕조 조선은 오래갔다.", 7),
            inCategory(7, "있는 후보", "있는 후보는 모두 나왔다.", 5),
            inCategory(8, "후보 있음", "후보가 있는지 모른다. 후보는 있다.", 5),
        };
        plain = TestSearch.open(plainDir, CommonGrams.none()).add(pages);
        paired = TestSearch.open(pairedDir, COMMON).add(pages);
    }

    @AfterAll
    static void close() throws IOException {
        plain.close();
        paired.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "\"the quick\"", "\"quick the\"", "\"the lazy dog\"", "\"history of korea\"", "\"of the\"", "\"brown fox\"",
        "\"공부를 하는\"", "\"하는 사람\"", "\"공부를 하는 사람\"", "\"사람은 공부를\"", "\"있는 후보는\"", "\"후보는 있다\"",
        "\"삼성전자 주가\"", "\"전자 주가\"", "\"조선 왕조\"", "\"왕조 조선\"", "\"조선 왕조의 법궁\"", "-\"조선 왕조\" 왕조"})
    void aPhraseFindsTheSamePagesWithAndWithoutPairs(String q) {
        assertThat(paired.ids(q)).as(q).containsExactlyInAnyOrderElementsOf(plain.ids(q));
    }

    @Test
    void phrasesStillNeedTheirWordsAdjacentAndInOrder() {
        assertThat(paired.ids("\"the quick\"")).containsExactly(1L);
        assertThat(paired.ids("\"조선 왕조\"")).containsExactly(6L);
        assertThat(paired.ids("\"있는 후보는\"")).containsExactly(7L);
    }

    @Test
    void aPhraseWithACommonWordIsMatchedThroughItsPair() {
        SearchAnalysis analysis = paired.index.analysis();
        assertThat(analysis.phraseTokens("the quick fox")).containsExactly(
                new Token("the_quick", 0), new Token("quick", 1), new Token("fox", 2));
        // The second word keeps its own position: the gap of the dropped particle stays exact.
        assertThat(analysis.phraseTokens("있는 후보는")).containsExactly(new Token("있_후보", 0), new Token("후보", 2));
    }

    @Test
    void aPhraseWithoutCommonWordsOrOfOneWordKeepsTheQueryTerms() {
        SearchAnalysis analysis = paired.index.analysis();
        assertThat(analysis.phraseTokens("quick brown")).containsExactly(new Token("quick", 0), new Token("brown", 1));
        // The query chain keeps a compound whole; one term needs no positions at all.
        assertThat(analysis.phraseTokens("삼성전자")).extracting(Token::term).containsExactly("삼성전자");
    }

    @Test
    void aPhraseMatchedThroughPairsIsHighlightedAsBefore() {
        List<SearchHit> hits = paired.respond("\"the quick\"").results().content();
        assertThat(hits).hasSize(1);
        assertThat(hits.getFirst().snippet()).startsWith("<b>The quick</b> brown fox")
                .isEqualTo(plain.respond("\"the quick\"").results().content().getFirst().snippet());
    }
}
