package dev.hanwiki.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hanwiki.platform.InvalidInputException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PasswordStrengthTest {

    private final PasswordStrength strength = new PasswordStrength(new AuthSettings(
            "dGVzdC1vbmx5LXNlY3JldC1mb3ItaGFud2lraS10ZXN0cw==", Duration.ofMinutes(30), "hanwiki", false,
            new AuthSettings.Blacklist("127.0.0.1", 6379, Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofSeconds(1)), 2));

    @ParameterizedTest
    @ValueSource(strings = {"password1", "Password1", "qwerty123", "Passw0rd!", "12345678", "iloveyou1"})
    void commonPasswordsAreRefused(String password) {
        assertThatThrownBy(() -> strength.check(password, "someone", "누군가"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("too easy to guess");
    }

    @Test
    void aPasswordBuiltOnTheUsernameIsRefused() {
        assertThatThrownBy(() -> strength.check("traveler2025", "traveler2025x", "여행자"))
                .isInstanceOf(InvalidInputException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Hanwiki-test-1", "Seoul-2025", "correct-horse-battery", "Secret-123"})
    void lessPredictablePasswordsPass(String password) {
        strength.check(password, "someone", "누군가");
        assertThat(strength.score(password)).isGreaterThanOrEqualTo(2);
    }
}
