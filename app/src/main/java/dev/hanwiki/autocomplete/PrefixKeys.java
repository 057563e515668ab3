package dev.hanwiki.autocomplete;

import dev.hanwiki.search.analysis.Hangul;
import dev.hanwiki.search.analysis.KoreanKeyboard;
import java.text.Normalizer;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which prefix keys a title is filed under, and which keys answer a typed prefix. Three forms,
 * each a tag in the key:
 * <ul>
 *   <li>{@code r:} raw: the normalized title's first characters (대, 대한, 대한민, ...);</li>
 *   <li>{@code j:} jamo: keystroke prefixes that end INSIDE a character (ㄷ, ㄷㅐㅎ, ㄷㅐㅎㅏ, ...),
 *       so a syllable still being typed finds the title; prefixes that end on a character
 *       boundary are already raw keys and are not stored twice;</li>
 *   <li>{@code c:} chosung: two or more initial consonants (ㄷㅎ, ㄷㅎㅁ, ...).</li>
 * </ul>
 * Only the first {@code maxChars} characters of a title get keys: a longer prefix is looked up
 * under its first {@code maxChars} characters and the candidates are checked against the rest.
 */
final class PrefixKeys {

    enum Form {
        RAW("r:"), JAMO("j:"), CHOSUNG("c:");

        final String tag;

        Form(String tag) {
            this.tag = tag;
        }
    }

    /**
     * How to answer one typed prefix.
     *
     * @param keys      the key suffixes to read (one or two), most specific first
     * @param chosung   the prefix is initial consonants: candidates are matched on their chosung
     * @param needle    what a matching title's keystrokes (or chosung) start with
     * @param truncated the prefix is longer than the keyed part: a full key may not hold every match
     */
    record Lookup(List<String> keys, boolean chosung, String needle, boolean truncated) {

        static final Lookup NOTHING = new Lookup(List.of(), false, "", false);

        boolean isEmpty() {
            return keys.isEmpty();
        }

        /** Whether {@code title} really starts with the typed prefix (entries may be stale). */
        boolean matches(String title) {
            if (title == null) {
                return false;
            }
            return chosung ? chosungRun(normalizeTitle(title)).startsWith(needle)
                    : KoreanKeyboard.keystrokes(normalizeTitle(title)).startsWith(needle);
        }
    }

    private final int maxChars;

    PrefixKeys(int maxChars) {
        this.maxChars = maxChars;
    }

    int maxChars() {
        return maxChars;
    }

    /** Every key suffix under which {@code title} is filed (empty for a blank title). */
    Set<String> keysOf(String title) {
        String t = normalizeTitle(title);
        Set<String> keys = new LinkedHashSet<>();
        if (t.isEmpty()) {
            return keys;
        }
        String head = t.substring(0, Math.min(t.length(), maxChars));
        for (int i = 1; i <= head.length(); i++) {
            keys.add(Form.RAW.tag + head.substring(0, i));
        }
        if (Hangul.hasHangul(head)) {
            String strokes = KoreanKeyboard.keystrokes(head);
            int[] ends = KoreanKeyboard.keystrokeEnds(head);
            int next = 0;
            for (int j = 1; j <= strokes.length(); j++) {
                if (next < ends.length && ends[next] == j) {
                    next++;
                    continue; // a character boundary: the raw key covers it
                }
                keys.add(Form.JAMO.tag + strokes.substring(0, j));
            }
        }
        String initials = chosungRun(t);
        for (int i = 2; i <= Math.min(initials.length(), maxChars); i++) {
            keys.add(Form.CHOSUNG.tag + initials.substring(0, i));
        }
        return keys;
    }

    /** The keys that answer {@code typed} (already checked for length by the caller). */
    Lookup lookup(String typed) {
        String q = normalizePrefix(typed);
        if (q.isEmpty()) {
            return Lookup.NOTHING;
        }
        String compact = q.replace(" ", "");
        if (compact.length() >= 2 && isConsonants(compact)) {
            boolean truncated = compact.length() > maxChars;
            return new Lookup(List.of(Form.CHOSUNG.tag + compact.substring(0, Math.min(compact.length(), maxChars))),
                    true, compact, truncated);
        }
        String composed = KoreanKeyboard.compose(KoreanKeyboard.keystrokes(q));
        String needle = KoreanKeyboard.keystrokes(composed);
        if (composed.length() > maxChars) {
            return new Lookup(List.of(Form.RAW.tag + composed.substring(0, maxChars)), false, needle, true);
        }
        if (!Hangul.hasHangul(composed)) {
            return new Lookup(List.of(Form.RAW.tag + composed), false, needle, false);
        }
        return new Lookup(List.of(Form.RAW.tag + composed, Form.JAMO.tag + needle), false, needle, false);
    }

    /** NFC, lower case, whitespace runs as one space, no leading or trailing space. */
    static String normalizeTitle(String title) {
        return normalizePrefix(title).strip();
    }

    /** Like a title, but one trailing space is kept: "대한 " is typed on the way to "대한 민국". */
    static String normalizePrefix(String text) {
        String nfc = Normalizer.normalize(text, Normalizer.Form.NFC).toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder(nfc.length());
        boolean space = true; // drops leading whitespace
        for (int i = 0; i < nfc.length(); i++) {
            char c = nfc.charAt(i);
            if (Character.isWhitespace(c) || Character.isISOControl(c) || Character.isSpaceChar(c)) {
                if (!space) {
                    out.append(' ');
                    space = true;
                }
            } else {
                out.append(c);
                space = false;
            }
        }
        return out.toString();
    }

    /** The title's leading run of initial consonants (spaces skipped): 대한민국 헌법 gives ㄷㅎㅁㄱㅎㅂ. */
    static String chosungRun(String normalizedTitle) {
        String all = Hangul.chosung(normalizedTitle);
        int end = 0;
        while (end < all.length() && Hangul.isCompatibilityConsonant(all.charAt(end))) {
            end++;
        }
        return all.substring(0, end);
    }

    private static boolean isConsonants(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!Hangul.isCompatibilityConsonant(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
