package dev.hanwiki.search;

import dev.hanwiki.search.analysis.Hangul;
import dev.hanwiki.search.analysis.KoreanKeyboard;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.search.FuzzyTermsEnum;
import org.apache.lucene.util.BytesRef;

/**
 * Rewrites for queries that find little (ADR 0023). The dictionary is the {@code spell} field:
 * every word of every title, as written, lower-cased and decomposed into jamo, with the number
 * of pages using it.
 * <ul>
 *   <li>{@link #keyboard}: Latin words that are not words of the wiki but spell Hangul on the
 *       Korean keyboard ({@code dkssud} → 안녕);</li>
 *   <li>{@link #didYouMean}: each word missing from the dictionary is replaced by the nearest
 *       dictionary word at jamo-level edit distance (one wrong vowel or final consonant is one
 *       edit), the most used one among equally near ones. A Levenshtein automaton over the
 *       jamo terms finds the candidates, so the cost does not grow with the dictionary.</li>
 * </ul>
 */
final class Suggestions {

    /** "Finds little": fewer hits than this. */
    static final int FEW = 3;
    /** Particles peeled off a word before looking it up, re-attached to the suggestion. */
    private static final String[] PARTICLES = {"에서는", "에서", "으로", "에게", "까지", "부터", "처럼", "보다",
        "은", "는", "이", "가", "을", "를", "의", "에", "로", "와", "과", "도", "만"};
    /** Longest word a correction is looked for: automata grow with the word, typos are in words. */
    static final int MAX_WORD_LENGTH = 20;
    /** Candidates read from the automaton at most. */
    private static final int MAX_INSPECTIONS = 200;

    private Suggestions() {
    }

    /**
     * The text with its Latin words read as Korean keystrokes, if at least one word is not a
     * dictionary word and spells valid Hangul. Words that are known (java, seoul) stay.
     */
    static Optional<String> keyboard(IndexReader reader, String text, List<String> words) throws IOException {
        Terms terms = MultiTerms.getTerms(reader, PostFields.SPELL);
        String rewritten = text;
        boolean changed = false;
        for (String word : words) {
            if (word.length() > MAX_WORD_LENGTH || !isAsciiWord(word) || known(terms, word.toLowerCase(Locale.ROOT))) {
                continue;
            }
            Optional<String> hangul = KoreanKeyboard.toHangul(word);
            if (hangul.isPresent()) {
                rewritten = replaceWord(rewritten, word, hangul.get());
                changed = true;
            }
        }
        return changed ? Optional.of(rewritten) : Optional.empty();
    }

    /** The text with unknown words replaced by their nearest dictionary words, if any changed. */
    static Optional<String> didYouMean(IndexReader reader, String text, List<String> words) throws IOException {
        return didYouMean(reader, text, words, Integer.MAX_VALUE, Long.MAX_VALUE);
    }

    /**
     * As {@link #didYouMean(IndexReader, String, List)}, bounded (ADR 0087): at most
     * {@code maxWords} unknown words are looked up, and none once {@code deadlineNanos}
     * ({@link System#nanoTime()}) has passed; the rest stay as typed.
     */
    static Optional<String> didYouMean(IndexReader reader, String text, List<String> words, int maxWords,
            long deadlineNanos) throws IOException {
        Terms terms = MultiTerms.getTerms(reader, PostFields.SPELL);
        if (terms == null) {
            return Optional.empty();
        }
        String rewritten = text;
        boolean changed = false;
        int lookedUp = 0;
        for (String word : words) {
            if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0) {
                break;
            }
            String lower = word.toLowerCase(Locale.ROOT);
            if (lower.length() < 2 || lower.length() > MAX_WORD_LENGTH || known(terms, lower)) {
                continue;
            }
            if (lookedUp++ >= maxWords) {
                break;
            }
            Optional<String> better = correct(terms, word.toLowerCase(Locale.ROOT));
            if (better.isPresent()) {
                rewritten = replaceWord(rewritten, word, better.get());
                changed = true;
            }
        }
        return changed ? Optional.of(rewritten) : Optional.empty();
    }

    /** The nearest known word to an unknown {@code word}, its particle kept; empty if known or none near. */
    static Optional<String> correct(Terms terms, String word) throws IOException {
        if (word.length() < 2 || word.length() > MAX_WORD_LENGTH || known(terms, word)) {
            return Optional.empty();
        }
        String core = null;
        String particle = "";
        for (String p : PARTICLES) {
            if (word.length() > p.length() + 1 && word.endsWith(p)) {
                String stem = word.substring(0, word.length() - p.length());
                if (known(terms, stem)) {
                    return Optional.empty(); // a known word with a particle
                }
                if (core == null) {
                    core = stem;
                    particle = p;
                }
            }
        }
        if (core != null) {
            String p = particle;
            Optional<String> fixed = nearest(terms, core).map(w -> w + particleFor(w, p));
            if (fixed.isPresent()) {
                return fixed;
            }
        }
        return nearest(terms, word);
    }

    /** 을/를, 이/가, 은/는, 과/와, 으로/로 follow the final consonant of the new word. */
    private static String particleFor(String word, String particle) {
        char last = word.charAt(word.length() - 1);
        if (!Hangul.isSyllable(last)) {
            return particle;
        }
        boolean batchim = (last - 0xAC00) % 28 != 0;
        return switch (particle) {
            case "을", "를" -> batchim ? "을" : "를";
            case "이", "가" -> batchim ? "이" : "가";
            case "은", "는" -> batchim ? "은" : "는";
            case "과", "와" -> batchim ? "과" : "와";
            case "으로", "로" -> batchim && (last - 0xAC00) % 28 != 8 ? "으로" : "로";
            default -> particle;
        };
    }

    /**
     * One edit first (most typos are one wrong jamo, and a one-edit automaton is cheap); two
     * only for words of more than six jamo that have no candidate at one edit. A two-edit
     * automaton costs milliseconds to build and walks many more terms.
     */
    private static Optional<String> nearest(Terms terms, String word) throws IOException {
        String jamo = Hangul.toJamo(word);
        Optional<String> near = nearest(terms, jamo, 1);
        return near.isEmpty() && jamo.length() > 6 ? nearest(terms, jamo, 2) : near;
    }

    private static Optional<String> nearest(Terms terms, String jamo, int maxEdits) throws IOException {
        FuzzyTermsEnum candidates = new FuzzyTermsEnum(terms, new Term(PostFields.SPELL, jamo), maxEdits, 1, true);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        int bestFreq = 0;
        int inspected = 0;
        for (BytesRef term = candidates.next(); term != null && inspected < MAX_INSPECTIONS; term = candidates.next()) {
            inspected++;
            String candidate = term.utf8ToString();
            int distance = distance(jamo, candidate);
            int freq = candidates.docFreq();
            if (distance < bestDistance || (distance == bestDistance && freq > bestFreq)) {
                best = candidate;
                bestDistance = distance;
                bestFreq = freq;
            }
        }
        return best == null || bestDistance == 0 ? Optional.empty() : Optional.of(Hangul.fromJamo(best));
    }

    /** Jamo-level Levenshtein with adjacent transpositions counted as one edit. */
    private static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + cost);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    private static boolean known(Terms terms, String word) throws IOException {
        if (terms == null) {
            return false;
        }
        var te = terms.iterator();
        return te.seekExact(new BytesRef(Hangul.toJamo(word)));
    }

    private static boolean isAsciiWord(String word) {
        boolean letter = false;
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (c >= 128) {
                return false;
            }
            letter |= Character.isLetter(c);
        }
        return letter;
    }

    /** Replaces the first whole-word occurrence of {@code word} in {@code text}. */
    static String replaceWord(String text, String word, String replacement) {
        int from = 0;
        while (true) {
            int at = text.indexOf(word, from);
            if (at < 0) {
                return text;
            }
            boolean startOk = at == 0 || !Character.isLetterOrDigit(text.charAt(at - 1));
            int end = at + word.length();
            boolean endOk = end == text.length() || !Character.isLetterOrDigit(text.charAt(end));
            if (startOk && endOk) {
                return text.substring(0, at) + replacement + text.substring(end);
            }
            from = at + 1;
        }
    }
}
