package dev.hanwiki.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hanwiki.platform.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AccountRulesTest {

    @ParameterizedTest
    @ValueSource(strings = {"alice", "Alice2025", "a1b2c3d4e5f6g7h8i9j0"})
    void usernamesOfFiveToTwentyLettersOrDigitsAreAccepted(String username) {
        assertThat(AccountRules.username(username)).isEqualTo(username);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abcd", "a1b2c3d4e5f6g7h8i9j0k", "alice_1", "alice 1", "앨리스123", "alice!", "ａｌｉｃｅ"})
    void otherUsernamesAreInvalidInput(String username) {
        assertThatThrownBy(() -> AccountRules.username(username)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("username");
    }

    @Test
    void aMissingUsernameIsInvalidInput() {
        assertThatThrownBy(() -> AccountRules.username(null)).isInstanceOf(InvalidInputException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"앨리", "위키편집자", "bob", "Bob2", "ÉlodieÉlodie", "가나다라마바사아자차카타"})
    void nicknamesOfTwoToTwelveLettersOrDigitsInAnyScriptAreAccepted(String nickname) {
        assertThat(AccountRules.nickname(nickname)).isEqualTo(nickname);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "가", "가나다라마바사아자차카타파", "bob smith", "bob_", "<b>", "🙂🙂", "\u0000ab"})
    void otherNicknamesAreInvalidInput(String nickname) {
        assertThatThrownBy(() -> AccountRules.nickname(nickname)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("nickname");
    }

    @Test
    void nicknamesAreStoredComposedSoOneVisibleNameHasOneSpelling() {
        String decomposed = "\u1112\u1161\u11ab\u1100\u1173\u11af"; // 한글 as conjoining jamo
        assertThat(AccountRules.nickname(decomposed)).isEqualTo("한글");
    }

    @ParameterizedTest
    @ValueSource(strings = {"password1", "PASSWORD1", "Password", "pass word", "비밀번호비밀번호1", "abcdefg!", "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp12"})
    void passwordsOfEightToSixtyFourCharactersMixingTwoClassesAreAccepted(String password) {
        assertThat(AccountRules.password(password)).isEqualTo(password);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Pass1", "password", "12345678", "PASSWORD", "ppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp12", "pass\tword1", "pass\u0000word1"})
    void otherPasswordsAreInvalidInput(String password) {
        assertThatThrownBy(() -> AccountRules.password(password)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("password");
    }
}
