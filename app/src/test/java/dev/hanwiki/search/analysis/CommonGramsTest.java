package dev.hanwiki.search.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Golden cases for the word pairs of common terms (ADR 0024): the document chain adds a pair
 * at the first word's position (offsets spanning both words) wherever either word is common,
 * across the gaps that stop tags leave; the query chain never adds pairs (phrases select them
 * from the document chain, see SearchAnalysis#phraseTokens).
 */
class CommonGramsTest {

    /** CRC32 of app/src/main/resources/search/common-terms.txt as the current index FORMAT holds it. */
    private static final long COMMON_TERMS_CRC = 2560727069L;

    private static KoreanAnalysis analysis;

    @BeforeAll
    static void open() throws IOException {
        try (InputStream in = CommonGramsTest.class.getResourceAsStream("/search/user-dictionary.txt")) {
            analysis = new KoreanAnalysis(KoreanAnalysis.parseDictionary(new String(in.readAllBytes(), StandardCharsets.UTF_8)),
                    CommonGrams.parse("# a comment line\nthe\n하\t# 55%\n있\n전자\n"));
        }
    }

    @AfterAll
    static void close() {
        analysis.close();
    }

    /** term/position increment/start-end offsets/type, one string per token. */
    private static List<String> tokens(Analyzer analyzer, String text) throws IOException {
        List<String> out = new ArrayList<>();
        try (TokenStream ts = analyzer.tokenStream("content", text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            PositionIncrementAttribute inc = ts.addAttribute(PositionIncrementAttribute.class);
            OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
            TypeAttribute type = ts.addAttribute(TypeAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                out.add(term + "/" + inc.getPositionIncrement() + "/" + offset.startOffset() + "-" + offset.endOffset()
                        + (CommonGrams.GRAM_TYPE.equals(type.type()) ? "/pair" : ""));
            }
            ts.end();
        }
        return out;
    }

    @Test
    void theListIsParsedWithoutCommentsOrBlanks() {
        CommonGrams grams = CommonGrams.parse("# header\n\nthe\t# 29.9%\n  하  \n");
        assertThat(grams.size()).isEqualTo(2);
        assertThat(grams.contains("the")).isTrue();
        assertThat(grams.contains("하")).isTrue();
        assertThat(grams.contains("#")).isFalse();
    }

    @Test
    void aCommonEnglishWordIsPairedWithTheNextAtItsOwnPosition() throws IOException {
        assertThat(tokens(analysis.documents(), "The quick fox"))
                .containsExactly("the/1/0-3", "the_quick/0/0-9/pair", "quick/1/4-9", "fox/1/10-13");
    }

    @Test
    void pairsSpanTheGapsLeftByParticlesAndEndings() throws IOException {
        // 를 and 는 are stop tags: 하 sits two positions after 공부, and 사람 two after 하.
        assertThat(tokens(analysis.documents(), "공부를 하는 사람"))
                .containsExactly("공부/1/0-2", "공부_하/0/0-5/pair", "하/2/4-5", "하_사람/0/4-9/pair", "사람/2/7-9");
        assertThat(tokens(analysis.documents(), "있는 후보는"))
                .containsExactly("있/1/0-1", "있_후보/0/0-5/pair", "후보/2/3-5");
    }

    @Test
    void compoundPartsArePairedLikeAnyOtherWord() throws IOException {
        assertThat(tokens(analysis.documents(), "삼성전자 주가"))
                .containsExactly("삼성전자/1/0-4", "삼성/0/0-2", "삼성_전자/0/0-4/pair", "전자/1/2-4", "전자_주가/0/2-7/pair", "주가/1/5-7");
    }

    @Test
    void wordsWithoutACommonNeighbourAreNotPaired() throws IOException {
        assertThat(tokens(analysis.documents(), "quick brown fox")).containsExactly("quick/1/0-5", "brown/1/6-11", "fox/1/12-15");
    }

    @Test
    void queriesNeverAddPairs() throws IOException {
        assertThat(tokens(analysis.queries(), "The quick fox")).containsExactly("the/1/0-3", "quick/1/4-9", "fox/1/10-13");
        assertThat(tokens(analysis.queries(), "있는 후보는")).containsExactly("있/1/0-1", "후보/2/3-5");
    }

    @Test
    void noListMeansNoPairs() throws IOException {
        KoreanAnalysis plain = new KoreanAnalysis(analysis.dictionary());
        try {
            assertThat(tokens(plain.documents(), "The quick fox")).containsExactly("the/1/0-3", "quick/1/4-9", "fox/1/10-13");
        } finally {
            plain.close();
        }
    }

    /**
     * The pairs are part of what the index holds: a node keeps an index only if its FORMAT is
     * this build's. If this fails, the list changed: bump PostIndex.FORMAT (nodes then rebuild
     * from the change topic) and put the new checksum here.
     */
    @Test
    void theCommonTermsListIsTheOneTheIndexFormatWasBuiltWith() throws IOException {
        try (InputStream in = CommonGramsTest.class.getResourceAsStream("/search/common-terms.txt")) {
            CRC32 crc = new CRC32();
            crc.update(in.readAllBytes());
            assertThat(crc.getValue()).as("CRC32 of common-terms.txt").isEqualTo(COMMON_TERMS_CRC);
        }
    }
}
