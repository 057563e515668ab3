package dev.hanwiki.platform;

import java.text.Normalizer;

/**
 * Text that people see as a name or a title (ADR 0088): kept in NFC, so one visible string has
 * one spelling (search, uniqueness and autocomplete compare code points), and refused when it
 * holds control characters or bidirectional controls, which can hide or reorder what a reader
 * sees ("Trojan Source" tricks, invisible NULs in titles).
 */
public final class DisplayText {

    private DisplayText() {
    }

    /** @return the NFC form of {@code value}; throws 400 INVALID_INPUT naming {@code field} if it holds a forbidden character */
    public static String normalize(String field, String value) {
        if (value == null) {
            return null;
        }
        String nfc = Normalizer.normalize(value, Normalizer.Form.NFC);
        nfc.codePoints().forEach(cp -> {
            if (Character.getType(cp) == Character.CONTROL || isBidiControl(cp) || cp == 0xFEFF) {
                throw new InvalidInputException(field + " must not contain control or bidirectional formatting characters (U+"
                        + String.format("%04X", cp) + ").");
            }
        });
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
}
