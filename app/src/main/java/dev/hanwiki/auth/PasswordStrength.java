package dev.hanwiki.auth;

import com.nulabinc.zxcvbn.Strength;
import com.nulabinc.zxcvbn.Zxcvbn;
import dev.hanwiki.platform.InvalidInputException;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Refuses guessable passwords with zxcvbn (ADR 0085): it scores a password by how many
 * guesses an attacker who knows common passwords, names, words, keyboard walks, dates and the
 * account's own names would need. Score 2 (about a million guesses and more) is the default
 * floor: with the login throttles an online attacker gets about 3,000 tries a day per account.
 * {@code password1}, {@code qwerty123} and the username with a digit fail; a mixed phrase passes.
 */
@Component
class PasswordStrength {

    private final Zxcvbn zxcvbn = new Zxcvbn();
    private final int minScore;

    PasswordStrength(AuthSettings settings) {
        this.minScore = settings.passwordMinScore();
    }

    /** @param context words the password must not lean on (username, nickname) */
    void check(String password, String... context) {
        Strength strength = zxcvbn.measure(password, List.of(context));
        if (strength.getScore() < minScore) {
            throw new InvalidInputException("password is too easy to guess (a common password, word or pattern): "
                    + "choose a longer or less predictable one.");
        }
    }

    int score(String password) {
        return zxcvbn.measure(password).getScore();
    }
}
