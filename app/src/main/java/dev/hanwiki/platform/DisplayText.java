package dev.hanwiki.platform;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UProperty;
import com.ibm.icu.lang.UScript;
import com.ibm.icu.text.SpoofChecker;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Text that people see as a name or a title (ADR 0088): kept in NFC, so one visible string has
 * one spelling (search, uniqueness and autocomplete compare code points), and refused when it
 * holds what can hide, reorder or disguise what a reader sees:
 * <ul>
 *   <li>control characters and bidirectional controls ("Trojan Source" tricks, NULs);</li>
 *   <li>invisible characters (Unicode's default-ignorable code points such as U+200B and the
 *       Hangul fillers U+3164 and U+FFA0, which make blank-looking names), except the joiners
 *       and variation selectors that emoji and some scripts need;</li>
 *   <li>look-alike mixtures (UTS #39, ICU's {@link SpoofChecker}): a word that mixes scripts
 *       beyond what real writing does (Latin "paypal" with a Cyrillic "а" fails; Hangul with
 *       Han and Latin, or Japanese kana with Han and Latin, pass), digits of different number
 *       systems in one word, or stacked invisible combining marks.</li>
 * </ul>
 * Names (nicknames) are held to one more rule ({@link #name}): a name written in another script
 * that reads as a Latin name (all-Cyrillic "Сос" for "Coc") is refused too.
 */
public final class DisplayText {

    /**
     * Moderately restrictive (UTS #39 §5.2): one script, or Latin with Han and Hangul, Latin with
     * Han and kana, Latin with Han and Bopomofo, or Latin with any one other script except
     * Cyrillic and Greek. Checked per word, so a title may hold words of different scripts.
     * Built once; an ICU SpoofChecker is immutable and safe to share between threads.
     */
    private static final SpoofChecker SPOOF = new SpoofChecker.Builder()
            .setRestrictionLevel(SpoofChecker.RestrictionLevel.MODERATELY_RESTRICTIVE)
            .setChecks(SpoofChecker.RESTRICTION_LEVEL | SpoofChecker.MIXED_NUMBERS | SpoofChecker.INVISIBLE
                    | SpoofChecker.HIDDEN_OVERLAY)
            .build();

    private DisplayText() {
    }

    /** @return the NFC form of {@code value}; throws 400 INVALID_INPUT naming {@code field} if it holds a forbidden character or word */
    public static String normalize(String field, String value) {
        if (value == null) {
            return null;
        }
        String nfc = Normalizer.normalize(value, Normalizer.Form.NFC);
        nfc.codePoints().forEach(cp -> {
            if (Character.getType(cp) == Character.CONTROL || isBidiControl(cp) || cp == 0xFEFF) {
                throw new InvalidInputException(field + " must not contain control or bidirectional formatting characters (U+"
                        + hex(cp) + ").");
            }
            if (isInvisible(cp)) {
                throw new InvalidInputException(field + " must not contain invisible characters (U+" + hex(cp) + " "
                        + UCharacter.getName(cp) + ").");
            }
        });
        for (String word : words(nfc)) {
            if (SPOOF.failsChecks(word)) {
                throw new InvalidInputException(field + " must not mix look-alike characters in one word (" + scripts(word)
                        + "): write each word in one script, with digits of one kind.");
            }
        }
        return nfc;
    }

    /**
     * A name people tell apart by its look: {@link #normalize}, and refused when it is not ASCII
     * but reads as an ASCII name (its UTS #39 skeleton is plain Latin letters and digits).
     */
    public static String name(String field, String value) {
        String nfc = normalize(field, value);
        if (nfc != null && !isAscii(nfc) && isAsciiAlphanumeric(SPOOF.getSkeleton(nfc))) {
            throw new InvalidInputException(field + " must not be written in look-alike letters of another script ("
                    + scripts(nfc) + " that reads as Latin).");
        }
        return nfc;
    }

    /** Content may hold line breaks and tabs, but never NUL. */
    public static void refuseNul(String field, String value) {
        if (value != null && value.indexOf('\u0000') >= 0) {
            throw new InvalidInputException(field + " must not contain NUL characters.");
        }
    }

    static boolean isBidiControl(int cp) {
        return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
    }

    /**
     * Default-ignorable code points (they render as nothing), except the zero-width (non-)joiner
     * and the variation selectors: emoji sequences and some scripts need those, and they cannot
     * make a word look like another on their own.
     */
    static boolean isInvisible(int cp) {
        if (cp == 0x200C || cp == 0x200D || (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF)) {
            return false;
        }
        return UCharacter.hasBinaryProperty(cp, UProperty.DEFAULT_IGNORABLE_CODE_POINT);
    }

    /** Runs of letters, marks and digits: what a reader takes for one word. */
    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            boolean inWord = UCharacter.isLetterOrDigit(cp) || isMark(cp);
            if (inWord && start < 0) {
                start = i;
            } else if (!inWord && start >= 0) {
                words.add(text.substring(start, i));
                start = -1;
            }
            i += Character.charCount(cp);
        }
        if (start >= 0) {
            words.add(text.substring(start));
        }
        return words;
    }

    private static boolean isMark(int cp) {
        int type = UCharacter.getType(cp);
        return type == UCharacter.NON_SPACING_MARK || type == UCharacter.COMBINING_SPACING_MARK
                || type == UCharacter.ENCLOSING_MARK;
    }

    /** The scripts of a word's letters, for the message ("Cyrillic, Latin"). */
    private static String scripts(String word) {
        Set<String> names = new TreeSet<>();
        word.codePoints().forEach(cp -> {
            int script = UScript.getScript(cp);
            if (script != UScript.COMMON && script != UScript.INHERITED) {
                names.add(UScript.getName(script));
            }
        });
        return names.isEmpty() ? "mixed digits or marks" : String.join(", ", names);
    }

    private static boolean isAscii(String text) {
        return text.chars().allMatch(c -> c < 0x80);
    }

    private static boolean isAsciiAlphanumeric(String text) {
        return !text.isEmpty() && text.chars().allMatch(c -> c < 0x80 && Character.isLetterOrDigit(c));
    }

    private static String hex(int cp) {
        return String.format("%04X", cp);
    }
}
