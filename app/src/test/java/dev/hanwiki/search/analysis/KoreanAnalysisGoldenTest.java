package dev.hanwiki.search.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionLengthAttribute;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Golden cases for the Korean and English analysis chains, asserting terms, offsets and
 * position increments the way Lucene's own analyzer tests do (BaseTokenStreamTestCase's
 * assertAnalyzesTo). They pin the decisions of ADR 0020:
 * <ul>
 *   <li>MIXED decompounding for documents (삼성전자 indexes 삼성전자, 삼성, 전자) but whole
 *       compounds in queries (one precise term), with phrase positions that still line up;</li>
 *   <li>inflections reduced to stems on both sides (했습니다 → 하);</li>
 *   <li>stop tags that drop grammar but keep real words (안녕, 다시, 빨리; 에어팟 via the
 *       user dictionary, which Nori alone would shrink to 팟);</li>
 *   <li>English lower-cased and stemmed, acronyms kept, full-width folded, Hanja read.</li>
 * </ul>
 * Every emitted token has position length 1: the chains never produce a graph.
 */
class KoreanAnalysisGoldenTest {

    private static KoreanAnalysis analysis;
    private static Analyzer documents;
    private static Analyzer queries;

    @BeforeAll
    static void open() throws IOException {
        try (InputStream in = KoreanAnalysisGoldenTest.class.getResourceAsStream("/search/user-dictionary.txt")) {
            analysis = new KoreanAnalysis(KoreanAnalysis.parseDictionary(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        }
        documents = analysis.documents();
        queries = analysis.queries();
    }

    @AfterAll
    static void close() {
        analysis.close();
    }

    /** Asserts terms, start and end offsets and position increments, as Lucene's tests do. */
    static void assertAnalyzesTo(Analyzer analyzer, String input, String[] terms, int[] startOffsets, int[] endOffsets,
            int[] positionIncrements) throws IOException {
        List<String> actualTerms = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        List<Integer> ends = new ArrayList<>();
        List<Integer> incs = new ArrayList<>();
        try (TokenStream ts = analyzer.tokenStream("content", input)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
            PositionIncrementAttribute inc = ts.addAttribute(PositionIncrementAttribute.class);
            PositionLengthAttribute len = ts.addAttribute(PositionLengthAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                actualTerms.add(term.toString());
                starts.add(offset.startOffset());
                ends.add(offset.endOffset());
                incs.add(inc.getPositionIncrement());
                assertThat(len.getPositionLength()).as("position length of '%s' in '%s'", term, input).isEqualTo(1);
                assertThat(input.substring(offset.startOffset(), offset.endOffset())).as("offsets of '%s'", term).isNotEmpty();
            }
            ts.end();
        }
        assertThat(actualTerms).as("terms of '%s'", input).containsExactly(terms);
        assertThat(starts).as("start offsets of '%s'", input).containsExactly(box(startOffsets));
        assertThat(ends).as("end offsets of '%s'", input).containsExactly(box(endOffsets));
        assertThat(incs).as("position increments of '%s'", input).containsExactly(box(positionIncrements));
    }

    private static Integer[] box(int[] values) {
        Integer[] out = new Integer[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i];
        }
        return out;
    }

    @Test
    void userDictionaryKeepsAirPodsWhole() throws IOException {
        assertAnalyzesTo(documents, "에어팟 프로",
                new String[] {"에어팟", "프로"},
                new int[] {0, 4}, new int[] {3, 6}, new int[] {1, 1});
    }

    @Test
    void userDictionaryCompoundIndexesWholeAndParts() throws IOException {
        assertAnalyzesTo(documents, "에어팟프로",
                new String[] {"에어팟프로", "에어팟", "프로"},
                new int[] {0, 0, 3}, new int[] {5, 3, 5}, new int[] {1, 0, 1});
    }

    @Test
    void userDictionaryCompoundStaysWholeInQueries() throws IOException {
        assertAnalyzesTo(queries, "에어팟프로",
                new String[] {"에어팟프로"},
                new int[] {0}, new int[] {5}, new int[] {1});
    }

    @Test
    void interjectionAnnyeongSurvives() throws IOException {
        assertAnalyzesTo(documents, "안녕",
                new String[] {"안녕"},
                new int[] {0}, new int[] {2}, new int[] {1});
    }

    @Test
    void greetingKeepsItsNounAndDropsTheEnding() throws IOException {
        assertAnalyzesTo(documents, "안녕하세요",
                new String[] {"안녕"},
                new int[] {0}, new int[] {2}, new int[] {1});
    }

    @Test
    void dictionaryCompoundIndexesWholeWordAndParts() throws IOException {
        assertAnalyzesTo(documents, "삼성전자",
                new String[] {"삼성전자", "삼성", "전자"},
                new int[] {0, 0, 2}, new int[] {4, 2, 4}, new int[] {1, 0, 1});
    }

    @Test
    void dictionaryCompoundIsOneQueryTerm() throws IOException {
        assertAnalyzesTo(queries, "삼성전자",
                new String[] {"삼성전자"},
                new int[] {0}, new int[] {4}, new int[] {1});
    }

    @Test
    void particlesAndCopulaAreDropped() throws IOException {
        assertAnalyzesTo(documents, "대한민국의 수도는 서울이다",
                new String[] {"대한민국", "대한", "민국", "수도", "서울"},
                new int[] {0, 0, 2, 6, 10}, new int[] {4, 2, 4, 8, 12}, new int[] {1, 0, 1, 2, 2});
    }

    @Test
    void phrasePositionsMatchDocumentsAfterACompound() throws IOException {
        assertAnalyzesTo(queries, "대한민국의 수도는 서울이다",
                new String[] {"대한민국", "수도", "서울"},
                new int[] {0, 6, 10}, new int[] {4, 8, 12}, new int[] {1, 3, 2});
    }

    @Test
    void inflectedVerbIsIndexedAsItsStem() throws IOException {
        assertAnalyzesTo(documents, "했습니다",
                new String[] {"하"},
                new int[] {0}, new int[] {1}, new int[] {1});
    }

    @Test
    void inflectedVerbQueriesTheStem() throws IOException {
        assertAnalyzesTo(queries, "했습니다",
                new String[] {"하"},
                new int[] {0}, new int[] {1}, new int[] {1});
    }

    @Test
    void pastTenseEndingIsDropped() throws IOException {
        assertAnalyzesTo(documents, "먹었다",
                new String[] {"먹"},
                new int[] {0}, new int[] {1}, new int[] {1});
    }

    @Test
    void adverbSurvivesAndIrregularVerbReachesItsStem() throws IOException {
        assertAnalyzesTo(documents, "빨리 달렸다",
                new String[] {"빨리", "달리"},
                new int[] {0, 3}, new int[] {2, 5}, new int[] {1, 1});
    }

    @Test
    void compoundNounFollowedByNoun() throws IOException {
        assertAnalyzesTo(documents, "인공지능 기술",
                new String[] {"인공지능", "인공", "지능", "기술"},
                new int[] {0, 0, 2, 5}, new int[] {4, 2, 4, 7}, new int[] {1, 0, 1, 1});
    }

    @Test
    void compoundNounQueryKeepsPositionGapForPhrases() throws IOException {
        assertAnalyzesTo(queries, "인공지능 기술",
                new String[] {"인공지능", "기술"},
                new int[] {0, 5}, new int[] {4, 7}, new int[] {1, 2});
    }

    @Test
    void latinWordsAreLowerCasedAndStemmed() throws IOException {
        assertAnalyzesTo(documents, "Running searches",
                new String[] {"run", "search"},
                new int[] {0, 8}, new int[] {7, 16}, new int[] {1, 1});
    }

    @Test
    void mixedLatinAndDigitsSplitAtTheBoundary() throws IOException {
        assertAnalyzesTo(documents, "iPhone15 Pro Max",
                new String[] {"iphon", "15", "pro", "max"},
                new int[] {0, 6, 9, 13}, new int[] {6, 8, 12, 16}, new int[] {1, 1, 1, 1});
    }

    @Test
    void acronymsAreNotStemmed() throws IOException {
        assertAnalyzesTo(documents, "BTS의 노래",
                new String[] {"bts", "노래"},
                new int[] {0, 5}, new int[] {3, 7}, new int[] {1, 2});
    }

    @Test
    void hanjaIsReadAsHangul() throws IOException {
        assertAnalyzesTo(documents, "大韓民國",
                new String[] {"대한", "민국"},
                new int[] {0, 2}, new int[] {2, 4}, new int[] {1, 1});
    }

    @Test
    void fullWidthLatinIsFolded() throws IOException {
        assertAnalyzesTo(documents, "ＳＡＭＳＵＮＧ",
                new String[] {"samsung"},
                new int[] {0}, new int[] {7}, new int[] {1});
    }

    @Test
    void thousandsSeparatorSplitsNumberAndUnitStays() throws IOException {
        assertAnalyzesTo(documents, "1,000원",
                new String[] {"1", "000", "원"},
                new int[] {0, 2, 5}, new int[] {1, 5, 6}, new int[] {1, 1, 1});
    }

    @Test
    void decimalNumberSplitsAtThePoint() throws IOException {
        assertAnalyzesTo(documents, "3.14",
                new String[] {"3", "14"},
                new int[] {0, 2}, new int[] {1, 4}, new int[] {1, 1});
    }

    @Test
    void hyphenatedNameSplitsIntoWordAndNumber() throws IOException {
        assertAnalyzesTo(documents, "COVID-19",
                new String[] {"covid", "19"},
                new int[] {0, 6}, new int[] {5, 8}, new int[] {1, 1});
    }

    @Test
    void auxiliaryVerbAndEndingsAreDropped() throws IOException {
        assertAnalyzesTo(documents, "그는 공부를 하고 있었다",
                new String[] {"그", "공부", "하"},
                new int[] {0, 3, 7}, new int[] {1, 5, 8}, new int[] {1, 2, 2});
    }

    @Test
    void boundNounsAreDropped() throws IOException {
        assertAnalyzesTo(documents, "것은 할 수 있는 일이다",
                new String[] {"하", "있", "일"},
                new int[] {3, 7, 10}, new int[] {4, 8, 11}, new int[] {3, 3, 2});
    }

    @Test
    void locativeParticleIsDropped() throws IOException {
        assertAnalyzesTo(documents, "경복궁에서",
                new String[] {"경복궁", "경복", "궁"},
                new int[] {0, 0, 2}, new int[] {3, 2, 3}, new int[] {1, 0, 1});
    }

    @Test
    void locativeParticleIsDroppedInQueries() throws IOException {
        assertAnalyzesTo(queries, "경복궁에서",
                new String[] {"경복궁"},
                new int[] {0}, new int[] {3}, new int[] {1});
    }

    @Test
    void unknownCompoundSplitsIntoKnownWords() throws IOException {
        assertAnalyzesTo(documents, "서울특별시청",
                new String[] {"서울", "특별", "시청"},
                new int[] {0, 2, 4}, new int[] {2, 4, 6}, new int[] {1, 1, 1});
    }

    @Test
    void properNounSplitsIntoNameAndTitle() throws IOException {
        assertAnalyzesTo(documents, "세종대왕",
                new String[] {"세종", "대왕"},
                new int[] {0, 2}, new int[] {2, 4}, new int[] {1, 1});
    }

    @Test
    void titleWithAdverbKeepsEveryWord() throws IOException {
        assertAnalyzesTo(documents, "다시 만난 세계",
                new String[] {"다시", "만나", "세계"},
                new int[] {0, 3, 6}, new int[] {2, 5, 8}, new int[] {1, 1, 2});
    }

    @Test
    void adjectiveRootSurvivesItsSuffix() throws IOException {
        assertAnalyzesTo(documents, "깨끗한 물",
                new String[] {"깨끗", "물"},
                new int[] {0, 4}, new int[] {2, 5}, new int[] {1, 3});
    }

    @Test
    void interjectionAndAdverbSurvive() throws IOException {
        assertAnalyzesTo(documents, "와! 정말",
                new String[] {"와", "정말"},
                new int[] {0, 3}, new int[] {1, 5}, new int[] {1, 1});
    }

    @Test
    void latinWordWithParticle() throws IOException {
        assertAnalyzesTo(documents, "Python으로 만든 웹서버",
                new String[] {"python", "만들", "웹", "서버"},
                new int[] {0, 9, 12, 13}, new int[] {6, 11, 13, 15}, new int[] {1, 2, 2, 1});
    }

    @Test
    void loanwordCompoundIndexesParts() throws IOException {
        assertAnalyzesTo(documents, "스마트폰",
                new String[] {"스마트폰", "스마트", "폰"},
                new int[] {0, 0, 3}, new int[] {4, 3, 4}, new int[] {1, 0, 1});
    }

    @Test
    void loanwordCompoundIsOneQueryTerm() throws IOException {
        assertAnalyzesTo(queries, "스마트폰",
                new String[] {"스마트폰"},
                new int[] {0}, new int[] {4}, new int[] {1});
    }

    @Test
    void threeCompoundsIndexEachPart() throws IOException {
        assertAnalyzesTo(documents, "한국어 형태소 분석기",
                new String[] {"한국어", "한국", "어", "형태소", "형태", "소", "분석기", "분석", "기"},
                new int[] {0, 0, 2, 4, 4, 6, 8, 8, 10}, new int[] {3, 2, 3, 7, 6, 7, 11, 10, 11}, new int[] {1, 0, 1, 1, 0, 1, 1, 0, 1});
    }

    @Test
    void threeCompoundsQueryWholeWordsWithGaps() throws IOException {
        assertAnalyzesTo(queries, "한국어 형태소 분석기",
                new String[] {"한국어", "형태소", "분석기"},
                new int[] {0, 4, 8}, new int[] {3, 7, 11}, new int[] {1, 2, 2});
    }

    @Test
    void datesKeepNumbersAndUnits() throws IOException {
        assertAnalyzesTo(documents, "2024년 3월 15일",
                new String[] {"2024", "년", "3", "월", "15", "일"},
                new int[] {0, 4, 6, 7, 9, 11}, new int[] {4, 5, 7, 8, 11, 12}, new int[] {1, 1, 1, 1, 1, 1});
    }

    @Test
    void punctuationOnlyGivesNoTokens() throws IOException {
        assertAnalyzesTo(documents, "!!! ??? ...",
                new String[] {},
                new int[] {}, new int[] {}, new int[] {});
    }

    @Test
    void emojiRunIsOneSearchableToken() throws IOException {
        assertAnalyzesTo(documents, "좋아요 😀👍",
                new String[] {"좋", "😀👍"},
                new int[] {0, 4}, new int[] {1, 8}, new int[] {1, 2});
    }

    @Test
    void htmlMarkupIsTextNotTags() throws IOException {
        assertAnalyzesTo(documents, "<script>alert(1)</script>",
                new String[] {"script", "alert", "1", "script"},
                new int[] {1, 8, 14, 18}, new int[] {7, 13, 15, 24}, new int[] {1, 1, 1, 1});
    }

    @Test
    void possessiveParticleAfterProperNoun() throws IOException {
        assertAnalyzesTo(documents, "부산의 해운대",
                new String[] {"부산", "해운대", "해운", "대"},
                new int[] {0, 4, 4, 6}, new int[] {2, 7, 6, 7}, new int[] {1, 2, 0, 1});
    }

    @Test
    void objectParticleIsDropped() throws IOException {
        assertAnalyzesTo(documents, "김치를 먹었다",
                new String[] {"김치", "먹"},
                new int[] {0, 4}, new int[] {2, 5}, new int[] {1, 2});
    }

    @Test
    void honorificEndingIsDropped() throws IOException {
        assertAnalyzesTo(documents, "감사합니다",
                new String[] {"감사"},
                new int[] {0}, new int[] {2}, new int[] {1});
    }

    @Test
    void englishStopWordsAreKeptForTitlesLikeTheWho() throws IOException {
        assertAnalyzesTo(documents, "The quick brown fox",
                new String[] {"the", "quick", "brown", "fox"},
                new int[] {0, 4, 10, 16}, new int[] {3, 9, 15, 19}, new int[] {1, 1, 1, 1});
    }

    @Test
    void koreanAndEnglishMixed() throws IOException {
        assertAnalyzesTo(documents, "Spring Boot로 서버를 만든다",
                new String[] {"spring", "boot", "서버", "만들"},
                new int[] {0, 7, 13, 17}, new int[] {6, 11, 15, 20}, new int[] {1, 1, 2, 2});
    }

    @Test
    void coinageFromUserDictionary() throws IOException {
        assertAnalyzesTo(documents, "먹방 유튜브",
                new String[] {"먹방", "유튜브"},
                new int[] {0, 3}, new int[] {2, 6}, new int[] {1, 1});
    }
}
