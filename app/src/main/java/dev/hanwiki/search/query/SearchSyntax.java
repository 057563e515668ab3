package dev.hanwiki.search.query;

import dev.hanwiki.search.analysis.Hangul;
import java.util.ArrayList;
import java.util.List;

/**
 * The search language, read leniently: every input parses, nothing throws. Plain words,
 * {@code "exact phrase"}, {@code -excluded} (word, phrase or operator), {@code intitle:},
 * {@code category:}. An unclosed quote runs to the end of the text; a lone operator or
 * {@code -} is ignored; {@code +} is accepted and means nothing more (every word is required
 * anyway). At most {@link #MAX_CLAUSES} clauses of at most {@link #MAX_CLAUSE_CHARS}
 * characters are kept, so a pasted page cannot turn into a query of thousands of terms or
 * seconds of analysis. Everything else (punctuation, emoji, symbols) is left to the
 * analyzer, which drops what is not a word.
 */
public final class SearchSyntax {

    public static final int MAX_CLAUSES = 32;
    /**
     * Characters kept per clause. Nori's cost grows faster than linearly on long runs of one
     * character class (1,000 brackets take ~100 ms), and no real word or phrase is longer.
     */
    public static final int MAX_CLAUSE_CHARS = 100;
    private static final String INTITLE = "intitle:";
    private static final String CATEGORY = "category:";

    private SearchSyntax() {
    }

    public static List<Clause> parse(String text) {
        List<Clause> clauses = new ArrayList<>();
        if (text == null) {
            return clauses;
        }
        int i = 0;
        int n = text.length();
        while (i < n && clauses.size() < MAX_CLAUSES) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c) || c == '+') {
                i++;
                continue;
            }
            boolean negated = false;
            while (i < n && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
                negated |= text.charAt(i) == '-';
                i++;
            }
            if (i >= n || Character.isWhitespace(text.charAt(i))) {
                continue; // a lone operator
            }
            Clause.Kind kind = null;
            if (startsWithIgnoreCase(text, i, INTITLE)) {
                kind = Clause.Kind.TITLE;
                i += INTITLE.length();
            } else if (startsWithIgnoreCase(text, i, CATEGORY)) {
                kind = Clause.Kind.CATEGORY;
                i += CATEGORY.length();
            }
            String value;
            boolean quoted = i < n && text.charAt(i) == '"';
            if (quoted) {
                int close = text.indexOf('"', i + 1);
                int end = close < 0 ? n : close;
                value = text.substring(i + 1, end);
                i = close < 0 ? n : close + 1;
            } else {
                int end = i;
                while (end < n && !Character.isWhitespace(text.charAt(end)) && text.charAt(end) != '"') {
                    end++;
                }
                value = text.substring(i, end);
                i = end;
            }
            value = truncate(value.strip());
            if (value.isEmpty() || (kind == null && !quoted && isBareOperator(value))) {
                continue;
            }
            if (kind == null) {
                if (quoted) {
                    kind = Clause.Kind.PHRASE;
                } else if (!negated && Hangul.isChosungWord(value)) {
                    kind = Clause.Kind.CHOSUNG;
                } else {
                    kind = Clause.Kind.WORD;
                }
            }
            clauses.add(new Clause(kind, value, negated));
        }
        return clauses;
    }

    private static boolean startsWithIgnoreCase(String text, int at, String prefix) {
        return text.regionMatches(true, at, prefix, 0, prefix.length())
                && text.length() > at + prefix.length()
                && !Character.isWhitespace(text.charAt(at + prefix.length()));
    }

    private static String truncate(String value) {
        if (value.length() <= MAX_CLAUSE_CHARS) {
            return value;
        }
        int end = MAX_CLAUSE_CHARS;
        if (Character.isLowSurrogate(value.charAt(end)) && Character.isHighSurrogate(value.charAt(end - 1))) {
            end--;
        }
        return value.substring(0, end);
    }

    private static boolean isBareOperator(String word) {
        return word.equalsIgnoreCase(INTITLE) || word.equalsIgnoreCase(CATEGORY);
    }

    /** The plain (non-negated) words, in order: what a suggestion may rewrite. */
    public static List<String> plainWords(List<Clause> clauses) {
        return clauses.stream().filter(c -> c.kind() == Clause.Kind.WORD && !c.negated()).map(Clause::text).toList();
    }
}
