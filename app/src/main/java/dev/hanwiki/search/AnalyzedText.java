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
     * What may stand around a word in a page. Nori takes the best path through the whole text,
     * so a word it does not know can read differently in a page than alone in a query (ADR 0021):
     * <ul>
     *   <li>its last syllable as a stem and an ending before a noun (짐친컬 여행기: 컬 as 커 +
     *       adnominal ㄹ), hence the followers: a noun, a verb, punctuation;</li>
     *   <li>its first syllable as a conjugated verb after another word (본문에 냄죠늜즪: 냄 as 내 +
     *       nominal ㅁ; 본문에 늘텬퀱돻: an ending dropped after 늘, a gap in the positions), hence
     *       the preceders: a noun with a particle, a subject, a possessive, a sentence's end, a
     *       bare noun.</li>
     * </ul>
     * One side at a time: on 2,000 random words in eight other contexts, analyzing both sides
     * at once found no page that these did not.
     */
    private static final List<String> FOLLOWERS = List.of(" 여행", " 가다", ".", ",");
    private static final List<String> PRECEDERS = List.of("본문에 ", "그는 ", "나의 ", "있다. ", "학교 ");

    private AnalyzedText() {
    }

    /**
     * The other ways a page's text may have analyzed one query word, besides {@code alone} (its
     * terms on their own): any reading it gets after another word or before a noun, a verb or
     * punctuation (only the terms that start inside the word, positions from 0, gaps kept). Most
     * words read the same everywhere, and then this is empty. A word without Hangul, or read as
     * one term of its own length, is not analyzed again.
     */
    static List<List<Token>> otherReadings(Analyzer queries, String word, List<Token> alone) {
        if (word.chars().noneMatch(c -> c >= 0xAC00 && c <= 0xD7A3)
                || alone.size() < 2 && (alone.isEmpty() || alone.getFirst().term().length() == word.length())) {
            return List.of();
        }
        List<Token> aloneFromZero = fromZero(alone);
        List<List<Token>> readings = new ArrayList<>();
        for (String before : PRECEDERS) {
            addReading(readings, aloneFromZero, tokens(queries, before + word, before.length(), before.length() + word.length()));
        }
        for (String after : FOLLOWERS) {
            addReading(readings, aloneFromZero, tokens(queries, word + after, 0, word.length()));
        }
        return readings;
    }

    private static void addReading(List<List<Token>> readings, List<Token> alone, List<Token> within) {
        List<Token> reading = fromZero(within);
        if (!reading.isEmpty() && !reading.equals(alone) && !readings.contains(reading)) {
            readings.add(reading);
        }
    }

    /** The same terms with the first at position 0. */
    private static List<Token> fromZero(List<Token> tokens) {
        if (tokens.isEmpty() || tokens.getFirst().position() == 0) {
            return tokens;
        }
        int base = tokens.getFirst().position();
        return tokens.stream().map(t -> new Token(t.term(), t.position() - base)).toList();
    }

    /** The terms of {@code text} that start before {@code end}, with their positions (stop-word gaps kept). */
    static List<Token> tokens(Analyzer analyzer, String text, int end) {
        return tokens(analyzer, text, 0, end);
    }

    /** The terms of {@code text} that start in [{@code start}, {@code end}), positions counted from the text's start. */
    static List<Token> tokens(Analyzer analyzer, String text, int start, int end) {
        List<Token> out = new ArrayList<>();
        try (TokenStream stream = analyzer.tokenStream(PostFields.CONTENT, text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            PositionIncrementAttribute inc = stream.addAttribute(PositionIncrementAttribute.class);
            OffsetAttribute offset = stream.addAttribute(OffsetAttribute.class);
            stream.reset();
            int position = -1;
            while (stream.incrementToken()) {
                position += inc.getPositionIncrement();
                if (offset.startOffset() >= start && offset.startOffset() < end) {
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
