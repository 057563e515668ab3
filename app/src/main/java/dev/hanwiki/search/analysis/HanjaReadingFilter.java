package dev.hanwiki.search.analysis;

import java.io.IOException;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.ko.tokenattributes.ReadingAttribute;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Replaces a Hanja term by its Hangul reading (大韓民國 → 대한 민국), like Lucene's
 * KoreanReadingFormFilter, but asks Nori's dictionary for the reading only when the term has a
 * Han character in it. The stock filter looks the reading up for every token, which cost 6% of
 * all indexing time in the profile (docs/bench/search.md) for text that is almost never Hanja.
 */
final class HanjaReadingFilter extends TokenFilter {

    private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private final ReadingAttribute reading = addAttribute(ReadingAttribute.class);

    HanjaReadingFilter(TokenStream input) {
        super(input);
    }

    @Override
    public boolean incrementToken() throws IOException {
        if (!input.incrementToken()) {
            return false;
        }
        if (hasHan(term)) {
            String r = reading.getReading();
            if (r != null) {
                term.setEmpty().append(r);
            }
        }
        return true;
    }

    private static boolean hasHan(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            // CJK Unified Ideographs, Extension A and Compatibility Ideographs (the BMP ones Nori reads).
            if ((c >= '\u4E00' && c <= '\u9FFF') || (c >= '\u3400' && c <= '\u4DBF') || (c >= '\uF900' && c <= '\uFAFF')) {
                return true;
            }
        }
        return false;
    }
}
