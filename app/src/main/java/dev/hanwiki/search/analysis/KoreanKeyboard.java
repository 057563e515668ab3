package dev.hanwiki.search.analysis;

import java.util.Optional;

/**
 * The standard Korean (dubeolsik) keyboard, both ways. Latin letters read as its keys compose
 * into syllables the way an input method does ({@code dkssud} was typed as ㅇㅏㄴㄴㅕㅇ, which
 * is 안녕: rescues queries typed in the wrong input mode); typed jamo compose into what the
 * input method shows ({@link #compose}); and text splits back into the keys pressed
 * ({@link #keystrokes}: what autocomplete matches prefixes on). The one home of the jamo tables.
 */
public final class KoreanKeyboard {

    // Jamo on each key, lower case; shifted keys that differ (Q W E R T O P) are listed apart.
    private static final String KEYS = "qwertyuiopasdfghjklzxcvbnm";
    private static final String JAMO = "ㅂㅈㄷㄱㅅㅛㅕㅑㅐㅔㅁㄴㅇㄹㅎㅗㅓㅏㅣㅋㅌㅊㅍㅠㅜㅡ";
    private static final String SHIFT_KEYS = "QWERTOP";
    private static final String SHIFT_JAMO = "ㅃㅉㄸㄲㅆㅒㅖ";

    /** Compatibility jamo in syllable order, for computing code points. */
    private static final String INITIALS = Hangul.CHOSUNG;
    private static final String MEDIALS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ";
    private static final String FINALS = "\0ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ";
    private static final String[][] VOWEL_PAIRS = {
        {"ㅗㅏ", "ㅘ"}, {"ㅗㅐ", "ㅙ"}, {"ㅗㅣ", "ㅚ"}, {"ㅜㅓ", "ㅝ"}, {"ㅜㅔ", "ㅞ"}, {"ㅜㅣ", "ㅟ"}, {"ㅡㅣ", "ㅢ"}};
    private static final String[][] FINAL_PAIRS = {
        {"ㄱㅅ", "ㄳ"}, {"ㄴㅈ", "ㄵ"}, {"ㄴㅎ", "ㄶ"}, {"ㄹㄱ", "ㄺ"}, {"ㄹㅁ", "ㄻ"}, {"ㄹㅂ", "ㄼ"},
        {"ㄹㅅ", "ㄽ"}, {"ㄹㅌ", "ㄾ"}, {"ㄹㅍ", "ㄿ"}, {"ㄹㅎ", "ㅀ"}, {"ㅂㅅ", "ㅄ"}};
    private static final char FIRST_JAMO = '\u3131';
    private static final char LAST_JAMO = '\u3163';

    /** Keys of each compatibility jamo (U+3131..U+3163): itself, or two keys for a compound (ㄳ, ㅘ). */
    private static final String[] KEYS_OF_JAMO = new String[LAST_JAMO - FIRST_JAMO + 1];

    static {
        for (char c = FIRST_JAMO; c <= LAST_JAMO; c++) {
            KEYS_OF_JAMO[c - FIRST_JAMO] = String.valueOf(c);
        }
        for (String[][] pairs : new String[][][] {VOWEL_PAIRS, FINAL_PAIRS}) {
            for (String[] p : pairs) {
                KEYS_OF_JAMO[p[1].charAt(0) - FIRST_JAMO] = p[0];
            }
        }
    }

    private KoreanKeyboard() {
    }

    /**
     * The keys pressed to type {@code text}: each syllable becomes its compatibility jamo with
     * compound vowels and finals split (닭 is ㄷㅏㄹㄱ, 과 is ㄱㅗㅏ), so every state an input method
     * shows while a word is typed is a prefix of the word's keystrokes: 대, 댛, 대하 and 대한 are
     * all prefixes of 대한민국's ㄷㅐㅎㅏㄴㅁㅣㄴㄱㅜㄱ. Other characters are kept.
     */
    public static String keystrokes(String text) {
        StringBuilder out = new StringBuilder(text.length() * 3);
        for (int i = 0; i < text.length(); i++) {
            appendKeys(out, text.charAt(i));
        }
        return out.toString();
    }

    /**
     * For each character of {@code text}, the length of {@code keystrokes(text)} up to and
     * including it: the places where typing has completed a character.
     */
    public static int[] keystrokeEnds(String text) {
        int[] ends = new int[text.length()];
        StringBuilder out = new StringBuilder(text.length() * 3);
        for (int i = 0; i < text.length(); i++) {
            appendKeys(out, text.charAt(i));
            ends[i] = out.length();
        }
        return ends;
    }

    private static void appendKeys(StringBuilder out, char c) {
        if (Hangul.isSyllable(c)) {
            int index = c - Hangul.SYLLABLE_FIRST;
            out.append(INITIALS.charAt(index / (21 * 28)));
            out.append(KEYS_OF_JAMO[MEDIALS.charAt((index / 28) % 21) - FIRST_JAMO]);
            if (index % 28 != 0) {
                out.append(KEYS_OF_JAMO[FINALS.charAt(index % 28) - FIRST_JAMO]);
            }
        } else if (Hangul.isCompatibilityJamo(c)) {
            out.append(KEYS_OF_JAMO[c - FIRST_JAMO]);
        } else {
            out.append(c);
        }
    }

    /**
     * The Hangul the keys spell, or empty unless every letter ends up inside a complete
     * syllable (a dangling consonant or vowel means the text was not typed for Korean).
     * Characters other than ASCII letters are copied and end the syllable being built.
     */
    public static Optional<String> toHangul(String typed) {
        StringBuilder out = new StringBuilder(typed.length());
        Composer composer = new Composer(out);
        boolean anyLetter = false;
        for (int i = 0; i < typed.length(); i++) {
            char c = typed.charAt(i);
            char jamo = jamoOf(c);
            if (jamo == 0) {
                if (Character.isLetter(c)) {
                    return Optional.empty(); // already Hangul, or another script: not a keyboard slip
                }
                composer.flush();
                out.append(c);
                continue;
            }
            anyLetter = true;
            composer.accept(jamo);
        }
        composer.flush();
        return anyLetter && composer.valid ? Optional.of(out.toString()) : Optional.empty();
    }

    /**
     * Composes typed compatibility jamo into syllables the way an input method shows them while
     * typing: ㄷㅐㅎ is 댛, ㄷㅐㅎㅏ is 대하. Other characters are copied and end the syllable being
     * built; jamo that cannot join a syllable stay as they are. Never fails.
     */
    public static String compose(String keystrokes) {
        StringBuilder out = new StringBuilder(keystrokes.length());
        Composer composer = new Composer(out);
        for (int i = 0; i < keystrokes.length(); i++) {
            char c = keystrokes.charAt(i);
            if (Hangul.isCompatibilityJamo(c)) {
                composer.accept(c);
            } else {
                composer.flush();
                out.append(c);
            }
        }
        composer.flush();
        return out.toString();
    }

    private static char jamoOf(char c) {
        int shifted = SHIFT_KEYS.indexOf(c);
        if (shifted >= 0) {
            return SHIFT_JAMO.charAt(shifted);
        }
        int key = KEYS.indexOf(Character.toLowerCase(c));
        return key >= 0 && c < 128 ? JAMO.charAt(key) : 0;
    }

    /** The input-method automaton: initial, medial, final, with compound vowels and finals. */
    private static final class Composer {
        private final StringBuilder out;
        private char initial;
        private char medial;
        private char fin;
        boolean valid = true;

        Composer(StringBuilder out) {
            this.out = out;
        }

        void accept(char jamo) {
            if (MEDIALS.indexOf(jamo) >= 0) {
                vowel(jamo);
            } else {
                consonant(jamo);
            }
        }

        private void consonant(char c) {
            if (initial == 0 || medial == 0) {
                if (initial != 0) {
                    valid = false; // two consonants with no vowel between them
                    flush();
                }
                initial = c;
                return;
            }
            if (fin == 0) {
                if (FINALS.indexOf(c) > 0) {
                    fin = c;
                } else {
                    flush();
                    initial = c;
                }
                return;
            }
            char pair = pair(FINAL_PAIRS, fin, c);
            if (pair != 0) {
                fin = pair;
            } else {
                flush();
                initial = c;
            }
        }

        private void vowel(char v) {
            if (initial == 0) {
                valid = false; // a vowel with no consonant before it
                out.append(v);
                return;
            }
            if (medial == 0) {
                medial = v;
                return;
            }
            if (fin == 0) {
                char pair = pair(VOWEL_PAIRS, medial, v);
                if (pair != 0) {
                    medial = pair;
                } else {
                    flush();
                    valid = false;
                    out.append(v);
                }
                return;
            }
            // The final consonant moves to start the next syllable (a compound final splits).
            char moving = fin;
            char staying = 0;
            for (String[] p : FINAL_PAIRS) {
                if (p[1].charAt(0) == fin) {
                    staying = p[0].charAt(0);
                    moving = p[0].charAt(1);
                }
            }
            fin = staying;
            flush();
            initial = moving;
            medial = v;
        }

        void flush() {
            if (initial != 0 && medial != 0) {
                int l = INITIALS.indexOf(initial);
                int m = MEDIALS.indexOf(medial);
                int f = fin == 0 ? 0 : FINALS.indexOf(fin);
                if (l < 0) {
                    valid = false; // a consonant that cannot start a syllable (e.g. ㄳ)
                    out.append(initial).append(medial);
                } else {
                    out.append((char) (0xAC00 + (l * 21 + m) * 28 + f));
                }
            } else if (initial != 0) {
                valid = false;
                out.append(initial);
            }
            initial = 0;
            medial = 0;
            fin = 0;
        }

        private static char pair(String[][] pairs, char first, char second) {
            for (String[] p : pairs) {
                if (p[0].charAt(0) == first && p[0].charAt(1) == second) {
                    return p[1].charAt(0);
                }
            }
            return 0;
        }
    }
}
