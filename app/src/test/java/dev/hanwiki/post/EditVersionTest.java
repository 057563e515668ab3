package dev.hanwiki.post;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hanwiki.platform.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which version an edit started from: the body's {@code version} or {@code If-Match}. */
class EditVersionTest {

    @ParameterizedTest
    @ValueSource(strings = {"\"3\"", "W/\"3\"", "3", " \"3\" "})
    void ifMatchNamesTheVersion(String ifMatch) {
        assertThat(PostController.expectedVersion(null, ifMatch)).isEqualTo(3L);
    }

    @Test
    void theBodyFieldAloneIsEnough() {
        assertThat(PostController.expectedVersion(5L, null)).isEqualTo(5L);
    }

    @Test
    void bothMayBeGivenIfTheyAgree() {
        assertThat(PostController.expectedVersion(5L, "\"5\"")).isEqualTo(5L);
    }

    @Test
    void disagreeingVersionsAreInvalidInput() {
        assertThatThrownBy(() -> PostController.expectedVersion(5L, "\"4\"")).isInstanceOf(InvalidInputException.class);
    }

    /** Neither is a 428, but only once the caller is known to be the author (PostService): not here. */
    @Test
    void neitherIsLeftForTheServiceToRefuse() {
        assertThat(PostController.expectedVersion(null, null)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"*", "\"a\"", "\"1\", \"2\"", "", "99999999999999999999", "\"-1\""})
    void anythingButOneVersionIsInvalidInput(String ifMatch) {
        assertThatThrownBy(() -> PostController.expectedVersion(null, ifMatch)).isInstanceOf(InvalidInputException.class);
    }
}
