package dev.hanwiki.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hanwiki.platform.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SearchRequestTest {

    @ParameterizedTest(name = "page={0} size={1}")
    @CsvSource({"-1,10", "0,0", "0,-5", "0,101", "10,100", "1000,1", "2147483647,100", "100,10"})
    void pagingOutsideTheAllowedWindowIsRejected(int page, int size) {
        assertThatThrownBy(() -> new SearchRequest("서울", null, page, size))
                .isInstanceOf(InvalidInputException.class)
                .extracting("code").isEqualTo("INVALID_INPUT");
    }

    @ParameterizedTest(name = "page={0} size={1}")
    @CsvSource({"0,1", "0,100", "9,100", "999,1", "99,10"})
    void pagingAtTheEdgesOfTheWindowIsAccepted(int page, int size) {
        SearchRequest request = new SearchRequest("서울", null, page, size);

        assertThat(request.offset()).isEqualTo(page * size);
    }

    @Test
    void blankOrMissingQueryIsRejected() {
        assertThatThrownBy(() -> new SearchRequest(null, null, 0, 10)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> new SearchRequest(" \t ", null, 0, 10)).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void queryLongerThanSixteenKilobytesIsRejected() {
        assertThat(new SearchRequest("가".repeat(16_384), null, 0, 10).q()).hasSize(16_384);
        assertThatThrownBy(() -> new SearchRequest("가".repeat(16_385), null, 0, 10))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("16384");
    }
}
