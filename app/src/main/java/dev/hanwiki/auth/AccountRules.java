package dev.hanwiki.auth;

import dev.hanwiki.platform.DisplayText;
import dev.hanwiki.platform.InvalidInputException;
import java.util.regex.Pattern;

/**
 * What a valid account looks like. Usernames are login ids: 5-20 ASCII letters or digits.
 * Nicknames are shown to others: 2-12 letters or digits of any script (Hangul included), kept
 * in NFC so that one visible name has one spelling. Passwords: 8-64 characters, no control
 * characters, and at least two of lower case, upper case, digits and other characters.
 * Uniqueness is case-insensitive, like the columns' collation.
 */
final class AccountRules {

    static final Pattern USERNAME = Pattern.compile("[A-Za-z0-9]{5,20}");
    static final Pattern NICKNAME = Pattern.compile("[\\p{L}\\p{N}]{2,12}");
    static final int PASSWORD_MIN = 8;
    static final int PASSWORD_MAX = 64;

    private AccountRules() {
    }

    static String username(String value) {
        if (value == null || !USERNAME.matcher(value).matches()) {
            throw new InvalidInputException("username must be 5 to 20 letters (a-z, A-Z) or digits.");
        }
        return value;
    }

    static String nickname(String value) {
        String normalized = value == null ? null : DisplayText.name("nickname", value);
        if (normalized == null || !NICKNAME.matcher(normalized).matches()) {
            throw new InvalidInputException("nickname must be 2 to 12 letters or digits.");
        }
        return normalized;
    }

    static String password(String value) {
        if (value == null) {
            throw new InvalidInputException("password is required.");
        }
        int length = value.codePointCount(0, value.length());
        if (length < PASSWORD_MIN || length > PASSWORD_MAX) {
            throw new InvalidInputException("password must be " + PASSWORD_MIN + " to " + PASSWORD_MAX + " characters.");
        }
        if (value.codePoints().anyMatch(Character::isISOControl)) {
            throw new InvalidInputException("password must not contain control characters.");
        }
        if (characterClasses(value) < 2) {
            throw new InvalidInputException(
                    "password must mix at least two of: lower case letters, upper case letters, digits, other characters.");
        }
        return value;
    }

    private static int characterClasses(String value) {
        boolean lower = false;
        boolean upper = false;
        boolean digit = false;
        boolean other = false;
        for (int cp : value.codePoints().toArray()) {
            if (cp >= 'a' && cp <= 'z') {
                lower = true;
            } else if (cp >= 'A' && cp <= 'Z') {
                upper = true;
            } else if (cp >= '0' && cp <= '9') {
                digit = true;
            } else {
                other = true;
            }
        }
        return (lower ? 1 : 0) + (upper ? 1 : 0) + (digit ? 1 : 0) + (other ? 1 : 0);
    }
}
