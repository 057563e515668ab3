package dev.hanwiki.autocomplete;

import dev.hanwiki.search.analysis.Hangul;
import java.util.Optional;

/**
 * Which searched text may become an autocomplete entry, and in what form. The form is the
 * one titles are keyed by ({@link PrefixKeys#normalizeTitle}: NFC, lower case, whitespace runs
 * as one space, trimmed), so a query and a title compare equal when they read the same. A
 * query is refused when it is
 * <ul>
 *   <li>shorter than 2 or longer than {@code maxChars} characters, or more than 6 words;</li>
 *   <li>query language rather than words: quotes, {@code field:}, parentheses, wildcards, a
 *       word starting with {@code -} or {@code +} (anything but letters, digits, marks, spaces
 *       and {@code - . & ' + #} inside words);</li>
 *   <li>unfinished typing: lone jamo (ㅋㅋ, ㄷㅎ: a chosung search is not a phrase to suggest);</li>
 *   <li>noise: no letter at all, or one character repeated more than 3 times in a row.</li>
 * </ul>
 */
final class QueryText {

    static final int MIN_CHARS = 2;
    static final int MAX_WORDS = 6;
    private static final int MAX_RUN = 3;
    private static final String INNER_PUNCTUATION = "-.&'+#";

    private QueryText() {
    }

    /** The entry form of {@code searched}, or empty when it must never be suggested. */
    static Optional<String> normalize(String searched, int maxChars) {
        if (searched == null || searched.length() > 4 * maxChars) {
            return Optional.empty();
        }
        String q = PrefixKeys.normalizeTitle(searched);
        int length = q.codePointCount(0, q.length());
        if (length < MIN_CHARS || length > maxChars) {
            return Optional.empty();
        }
        int words = 1;
        boolean letter = false;
        int run = 0;
        int previous = -1;
        boolean wordStart = true;
        for (int i = 0; i < q.length(); ) {
            int c = q.codePointAt(i);
            i += Character.charCount(c);
            run = c == previous ? run + 1 : 1;
            previous = c;
            if (run > MAX_RUN) {
                return Optional.empty();
            }
            if (c == ' ') {
                words++;
                wordStart = true;
                continue;
            }
            if (c < 0x10000 && Hangul.isCompatibilityJamo((char) c)) {
                return Optional.empty();
            }
            if (Character.isLetter(c)) {
                letter = true;
            } else if (!Character.isDigit(c) && !isMark(c)
                    && (INNER_PUNCTUATION.indexOf(c) < 0 || (wordStart && (c == '-' || c == '+')))) {
                return Optional.empty();
            }
            wordStart = false;
        }
        if (!letter || words > MAX_WORDS) {
            return Optional.empty();
        }
        return Optional.of(q);
    }

    private static boolean isMark(int c) {
        int type = Character.getType(c);
        return type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
                || type == Character.ENCLOSING_MARK;
    }
}
