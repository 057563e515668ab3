package dev.hanwiki.search;

import dev.hanwiki.search.SearchAnalysis.Token;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;

/** Terms of a text through one analysis chain, and the several readings of one word. */
final class AnalyzedText {

    /**
     * What may follow a word in a page: a noun, a verb, punctuation. Nori takes the best path
     * through the whole text, so the last syllable of a word it does not know can read as a
     * stem and an ending before a noun (짐친컬 여행기: 컬 as 커 + adnominal ㄹ) and as a syllable of
     * its own at the end of a query (ADR 0021).
     */
    private static final List<String> FOLLOWERS = List.of(" 여행", " 가다", ".", ",");

    private AnalyzedText() {
    }

    /**
     * The other ways a page's text may have analyzed one query word, besides {@code alone} (its
     * terms on their own): any reading it gets before a noun, a verb or punctuation (only the
     * terms that start inside the word). Most words read the same everywhere, and then this is
     * empty. A word without Hangul, or read as one term of its own length, is not analyzed again.
     */
    static List<List<Token>> otherReadings(Analyzer queries, String word, List<Token> alone) {
        if (word.chars().noneMatch(c -> c >= 0xAC00 && c <= 0xD7A3)
                || alone.size() < 2 && (alone.isEmpty() || alone.getFirst().term().length() == word.length())) {
            return List.of();
        }
        List<List<Token>> readings = new ArrayList<>();
        for (String follower : FOLLOWERS) {
            List<Token> within = tokens(queries, word + follower, word.length());
            if (!within.isEmpty() && !within.equals(alone) && !readings.contains(within)) {
                readings.add(within);
            }
        }
        return readings;
    }

    /** The terms of {@code text} that start before {@code end}, with their positions (stop-word gaps kept). */
    static List<Token> tokens(Analyzer analyzer, String text, int end) {
        List<Token> out = new ArrayList<>();
        try (TokenStream stream = analyzer.tokenStream(PostFields.CONTENT, text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            PositionIncrementAttribute inc = stream.addAttribute(PositionIncrementAttribute.class);
            OffsetAttribute offset = stream.addAttribute(OffsetAttribute.class);
            stream.reset();
            int position = -1;
            while (stream.incrementToken()) {
                position += inc.getPositionIncrement();
                if (offset.startOffset() < end) {
                    out.add(new Token(term.toString(), Math.max(position, 0)));
                }
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
