package dev.hanwiki.it;

import java.util.concurrent.ThreadLocalRandom;

/** Random Korean words and the keys that type them on the dubeolsik layout (for the keyboard rescue). */
final class KeyboardWords {

    /** Initial consonants with their keys: ㄱ ㄴ ㄷ ㄹ ㅁ ㅂ ㅅ ㅇ ㅈ ㅊ ㅋ ㅌ ㅍ ㅎ (index into the Unicode initials). */
    private static final int[] INITIALS = {0, 2, 3, 5, 6, 7, 9, 11, 12, 14, 15, 16, 17, 18};
    private static final String INITIAL_KEYS = "rsefaqtdwczxvg";
    /** Plain vowels with their keys: ㅏ ㅓ ㅗ ㅜ ㅡ ㅣ (index into the Unicode medials). */
    private static final int[] MEDIALS = {0, 4, 8, 13, 18, 20};
    private static final String MEDIAL_KEYS = "kjhnml";

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
