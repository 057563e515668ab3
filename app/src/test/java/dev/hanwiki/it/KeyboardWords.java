package dev.hanwiki.it;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Random Korean words and the keys that type them on the dubeolsik layout (for the keyboard
 * rescue). Open syllables of ㅊㅋㅌㅍ with ㅏㅓㅗㅜ only: Nori reads such words as unknown words,
 * never as particles or endings it drops, so a page titled with one is found by it. (With every
 * consonant and vowel, about one word in 300 was not found even alone, and one in ten not
 * inside a longer text, where Nori segments it differently than the query alone.)
 */
final class KeyboardWords {

    /** ㅊ ㅋ ㅌ ㅍ (index into the Unicode initials) and their keys. */
    private static final int[] INITIALS = {14, 15, 16, 17};
    private static final String INITIAL_KEYS = "czxv";
    /** ㅏ ㅓ ㅗ ㅜ (index into the Unicode medials) and their keys. */
    private static final int[] MEDIALS = {0, 4, 8, 13};
    private static final String MEDIAL_KEYS = "kjhn";

    private KeyboardWords() {
    }

    /** A word of {@code syllables} open syllables; the keys that type it are appended to {@code keys}. */
    static String random(int syllables, StringBuilder keys) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < syllables; i++) {
            int c = r.nextInt(INITIALS.length);
            int v = r.nextInt(MEDIALS.length);
            word.append((char) (0xAC00 + (INITIALS[c] * 21 + MEDIALS[v]) * 28));
            keys.append(INITIAL_KEYS.charAt(c)).append(MEDIAL_KEYS.charAt(v));
        }
        return word.toString();
    }
}
