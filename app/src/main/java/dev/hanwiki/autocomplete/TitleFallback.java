package dev.hanwiki.autocomplete;

import dev.hanwiki.search.IndexedTitles;
import dev.hanwiki.search.Popularity;
import dev.hanwiki.search.PostIndex;
import dev.hanwiki.search.analysis.Hangul;
import dev.hanwiki.search.analysis.KoreanKeyboard;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Autocomplete from this node's own index, for when Redis cannot answer: prefix candidates
 * from the title-word fields, most popular first, each checked against the typed prefix the
 * same way Redis entries are. The candidates are words anywhere in a title, so a very common
 * first word can crowd out matches beyond {@code candidates}: the answer may then be shorter
 * than Redis's, never wrong.
 */
final class TitleFallback {

    private final PostIndex index;
    private final int candidates;

    TitleFallback(PostIndex index, int candidates) {
        this.index = index;
        this.candidates = candidates;
    }

    List<Suggestion> suggest(PrefixKeys.Lookup lookup, int results) {
        List<IndexedTitles.Title> found = lookup.chosung()
                ? IndexedTitles.withChosungPrefix(index, lookup.needle(), candidates)
                : byFirstWord(lookup.needle());
        List<IndexedTitles.Title> matching = new ArrayList<>();
        for (IndexedTitles.Title t : found) {
            if (lookup.matches(t.title())) {
                matching.add(t);
            }
        }
        matching.sort(Comparator.comparingDouble((IndexedTitles.Title t) -> -Popularity.score(t.viewCount(), t.likeCount()))
                .thenComparingLong(IndexedTitles.Title::id));
        return matching.stream().limit(results).map(t -> Suggestion.ofTitle(t.id(), t.title())).toList();
    }

    private List<IndexedTitles.Title> byFirstWord(String needle) {
        String typed = KoreanKeyboard.compose(needle);
        String word = firstWord(typed);
        if (word.isEmpty()) {
            // Only a jamo so far (ㄷ): titles with a word starting with that consonant.
            char first = needle.isEmpty() ? 0 : needle.charAt(0);
            return Hangul.isCompatibilityConsonant(first)
                    ? IndexedTitles.withChosungPrefix(index, String.valueOf(first), candidates) : List.of();
        }
        return IndexedTitles.withWordPrefix(index, Hangul.toJamo(word), candidates);
    }

    /**
     * The typed text's first word, cut back to what is certain: trailing lone jamo go, and the
     * last syllable loses its final consonant (대한 may still become 대하늘), so the term is a
     * prefix of the spell term of every title that could match.
     */
    static String firstWord(String typed) {
        int start = 0;
        while (start < typed.length() && !Character.isLetterOrDigit(typed.charAt(start))) {
            start++;
        }
        int end = start;
        while (end < typed.length() && Character.isLetterOrDigit(typed.charAt(end))) {
            end++;
        }
        boolean wholeWord = end < typed.length();
        StringBuilder word = new StringBuilder(typed.substring(start, end));
        if (wholeWord) {
            return word.toString();
        }
        while (!word.isEmpty() && Hangul.isCompatibilityJamo(word.charAt(word.length() - 1))) {
            word.setLength(word.length() - 1);
        }
        if (!word.isEmpty()) {
            char last = word.charAt(word.length() - 1);
            if (Hangul.isSyllable(last) && (last - '\uAC00') % 28 != 0) {
                word.setCharAt(word.length() - 1, (char) (last - (last - '\uAC00') % 28));
            }
        }
        return word.toString();
    }
}
