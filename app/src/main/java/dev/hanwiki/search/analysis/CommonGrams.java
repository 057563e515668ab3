package dev.hanwiki.search.analysis;

import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.commongrams.CommonGramsFilter;

/**
 * The most frequent terms, which get word pairs in the index so that a phrase containing one
 * of them is a lookup of a rare pair instead of a position check on hundreds of thousands of
 * pages (Lucene's {@link CommonGramsFilter}; docs/adr/0024-common-grams-for-phrases.md). The
 * list is generated from the corpus term frequencies ({@code make common-terms}); an empty list
 * turns the pairs off.
 */
public final class CommonGrams {

    /** Between the two words of a pair, as {@link CommonGramsFilter} writes it (its constant is private). */
    public static final char SEPARATOR = '_';
    /** The token type of a pair. */
    public static final String GRAM_TYPE = CommonGramsFilter.GRAM_TYPE;

    private static final CommonGrams NONE = new CommonGrams(List.of());

    private final CharArraySet terms;

    private CommonGrams(List<String> terms) {
        this.terms = CharArraySet.unmodifiableSet(new CharArraySet(terms, false));
    }

    /** No pairs at all. */
    public static CommonGrams none() {
        return NONE;
    }

    /** One term per line (analyzed form, as in the index); {@code #} starts a comment. */
    public static CommonGrams parse(String text) {
        List<String> terms = new ArrayList<>();
        for (String line : text.split("\n")) {
            int hash = line.indexOf('#');
            String term = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (!term.isEmpty()) {
                terms.add(term);
            }
        }
        return new CommonGrams(terms);
    }

    public int size() {
        return terms.size();
    }

    public boolean contains(String term) {
        return terms.contains(term);
    }

    /** {@code stream} with a pair token added at the first word's position wherever either word is common. */
    TokenStream filter(TokenStream stream) {
        return terms.isEmpty() ? stream : new CommonGramsFilter(stream, terms);
    }
}
