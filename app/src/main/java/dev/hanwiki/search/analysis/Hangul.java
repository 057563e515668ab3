package dev.hanwiki.search.analysis;

import java.text.Normalizer;

/**
 * Hangul arithmetic: syllables as initial, medial and final jamo (Unicode's algorithmic
 * decomposition), initial-consonant (chosung) strings and a jamo-level edit distance.
 */
public final class Hangul {

    static final char SYLLABLE_FIRST = '\uAC00';
    static final char SYLLABLE_LAST = '\uD7A3';
    /** Compatibility jamo for the 19 initial consonants, in Unicode syllable order. */
    static final String CHOSUNG = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";

    private Hangul() {
    }

    public static boolean isSyllable(char c) {
        return c >= SYLLABLE_FIRST && c <= SYLLABLE_LAST;
    }

    /** A compatibility-jamo consonant as typed on a Korean keyboard (ㄱ .. ㅎ). */
    public static boolean isCompatibilityConsonant(char c) {
        return c >= '\u3131' && c <= '\u314E';
    }

    /** Any compatibility jamo as typed on its own: a consonant (ㄱ .. ㅎ) or a vowel (ㅏ .. ㅣ). */
    public static boolean isCompatibilityJamo(char c) {
        return c >= '\u3131' && c <= '\u3163';
    }

    /** True if {@code text} has any Hangul: a syllable or a typed jamo. */
    public static boolean hasHangul(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (isSyllable(c) || isCompatibilityJamo(c)) {
                return true;
            }
        }
        return false;
    }

    /**
     * True for a word made only of typed consonants, at least two: {@code ㄷㅎㅁㄱ}. Such a
     * word is a chosung query, not text (Nori would read it as noise).
     */
    public static boolean isChosungWord(String word) {
        if (word.length() < 2) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (!isCompatibilityConsonant(word.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The initial consonants of every syllable; other characters are kept, lower-cased
     * ({@code 갤럭시S24} gives {@code ㄱㄹㅅs24}), whitespace is dropped.
     */
    public static String chosung(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (isSyllable(c)) {
                out.append(CHOSUNG.charAt((c - SYLLABLE_FIRST) / (21 * 28)));
            } else if (!Character.isWhitespace(c)) {
                out.append(Character.toLowerCase(c));
            }
        }
        return out.toString();
    }

    /** Syllables decomposed into conjoining jamo (NFD): 한 becomes ᄒ ᅡ ᆫ, three characters. */
    public static String toJamo(String text) {
        return Normalizer.normalize(text, Normalizer.Form.NFD);
    }

    /** The inverse of {@link #toJamo}: conjoining jamo recomposed into syllables (NFC). */
    public static String fromJamo(String jamo) {
        return Normalizer.normalize(jamo, Normalizer.Form.NFC);
    }

    /**
     * Levenshtein distance over jamo: 한국 and 헌국 are 1 apart (one vowel), 한국 and 곰국 are 3.
     * A syllable-level distance would call both 1, which is why suggestions rank by this one.
     */
    public static int jamoDistance(String a, String b) {
        return levenshtein(toJamo(a), toJamo(b));
    }

    static int levenshtein(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
