package dev.hanwiki.search.analysis;

import java.io.IOException;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Rewrites each Hangul term as conjoining jamo (NFD), so that the terms dictionary of the
 * spell field can be searched with a Levenshtein automaton at jamo granularity: one wrong
 * vowel or final consonant is one edit, as a typist would count it.
 */
final class JamoFilter extends TokenFilter {

    private final CharTermAttribute term = addAttribute(CharTermAttribute.class);

    JamoFilter(TokenStream input) {
        super(input);
    }

    @Override
    public boolean incrementToken() throws IOException {
        if (!input.incrementToken()) {
            return false;
        }
        for (int i = 0; i < term.length(); i++) {
            if (Hangul.isSyllable(term.charAt(i))) {
                String jamo = Hangul.toJamo(term.toString());
                term.setEmpty().append(jamo);
                break;
            }
        }
        return true;
    }
}
