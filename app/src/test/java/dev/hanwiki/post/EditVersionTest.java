package dev.hanwiki.post;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hanwiki.platform.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which version an edit started from: the body's {@code version} or {@code If-Match}, and one of them. */
class EditVersionTest {

    @ParameterizedTest
    @ValueSource(strings = {"\"3\"", "W/\"3\"", "3", " \"3\" "})
    void ifMatchNamesTheVersion(String ifMatch) {
        assertThat(PostController.expectedVersion(null, ifMatch)).isEqualTo(3);
    }

    @Test
    void theBodyFieldAloneIsEnough() {
        assertThat(PostController.expectedVersion(5L, null)).isEqualTo(5);
    }

    @Test
    void bothMayBeGivenIfTheyAgree() {
        assertThat(PostController.expectedVersion(5L, "\"5\"")).isEqualTo(5);
    }

    @Test
    void disagreeingVersionsAreInvalidInput() {
        assertThatThrownBy(() -> PostController.expectedVersion(5L, "\"4\"")).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void neitherIsPreconditionRequired() {
        assertThatThrownBy(() -> PostController.expectedVersion(null, null)).isInstanceOf(VersionRequiredException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"*", "\"a\"", "\"1\", \"2\"", "", "99999999999999999999", "\"-1\""})
    void anythingButOneVersionIsInvalidInput(String ifMatch) {
        assertThatThrownBy(() -> PostController.expectedVersion(null, ifMatch)).isInstanceOf(InvalidInputException.class);
    }
}
