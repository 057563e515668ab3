package dev.hanwiki.autocomplete;

import dev.hanwiki.search.analysis.Hangul;

/**
 * Text as the keys a Korean (dubeolsik) typist presses: each syllable becomes its compatibility
 * jamo with compound vowels and finals split (닭 is ㄷㅏㄹㄱ, 과 is ㄱㅗㅏ), so every state an
 * input method shows while a word is typed is a prefix of the word's keystrokes: 대, 댛, 대하
 * and 대한 are all prefixes of 대한민국's ㄷㅐㅎㅏㄴㅁㅣㄴㄱㅜㄱ. Other characters are kept.
 */
final class Keystrokes {

    private static final String INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";
    private static final String[] MEDIALS = {
        "ㅏ", "ㅐ", "ㅑ", "ㅒ", "ㅓ", "ㅔ", "ㅕ", "ㅖ", "ㅗ", "ㅗㅏ", "ㅗㅐ", "ㅗㅣ", "ㅛ", "ㅜ", "ㅜㅓ", "ㅜㅔ", "ㅜㅣ", "ㅠ",
        "ㅡ", "ㅡㅣ", "ㅣ"};
    private static final String[] FINALS = {
        "", "ㄱ", "ㄲ", "ㄱㅅ", "ㄴ", "ㄴㅈ", "ㄴㅎ", "ㄷ", "ㄹ", "ㄹㄱ", "ㄹㅁ", "ㄹㅂ", "ㄹㅅ", "ㄹㅌ", "ㄹㅍ", "ㄹㅎ",
        "ㅁ", "ㅂ", "ㅂㅅ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ"};
    /** Compatibility jamo that are two keys: compound finals and vowels typed on their own. */
    private static final String COMPOUND_JAMO = "ㄳㄵㄶㄺㄻㄼㄽㄾㄿㅀㅄㅘㅙㅚㅝㅞㅟㅢ";
    private static final String[] COMPOUND_KEYS = {
        "ㄱㅅ", "ㄴㅈ", "ㄴㅎ", "ㄹㄱ", "ㄹㅁ", "ㄹㅂ", "ㄹㅅ", "ㄹㅌ", "ㄹㅍ", "ㄹㅎ", "ㅂㅅ", "ㅗㅏ", "ㅗㅐ", "ㅗㅣ", "ㅜㅓ",
        "ㅜㅔ", "ㅜㅣ", "ㅡㅣ"};

    private Keystrokes() {
    }

    /** The keystrokes of {@code text}. */
    static String of(String text) {
        StringBuilder out = new StringBuilder(text.length() * 3);
        for (int i = 0; i < text.length(); i++) {
            append(out, text.charAt(i));
        }
        return out.toString();
    }

    /**
     * For each character of {@code text}, the length of the keystrokes of {@code text} up to and
     * including it: the places where typing has completed a character.
     */
    static int[] boundaries(String text) {
        int[] ends = new int[text.length()];
        StringBuilder out = new StringBuilder(text.length() * 3);
        for (int i = 0; i < text.length(); i++) {
            append(out, text.charAt(i));
            ends[i] = out.length();
        }
        return ends;
    }

    /** True if {@code text} has any Hangul (a syllable or a typed jamo). */
    static boolean hasHangul(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Hangul.isSyllable(c) || isJamo(c)) {
                return true;
            }
        }
        return false;
    }

    static boolean isJamo(char c) {
        return c >= '\u3131' && c <= '\u3163';
    }

    private static void append(StringBuilder out, char c) {
        if (Hangul.isSyllable(c)) {
            int index = c - '\uAC00';
            out.append(INITIALS.charAt(index / (21 * 28)));
            out.append(MEDIALS[(index / 28) % 21]);
            out.append(FINALS[index % 28]);
            return;
        }
        int compound = COMPOUND_JAMO.indexOf(c);
        if (compound >= 0) {
            out.append(COMPOUND_KEYS[compound]);
        } else {
            out.append(c);
        }
    }
}
