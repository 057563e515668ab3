package dev.hanwiki.post;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hanwiki.platform.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PagingTest {

    @Test
    void aPageSkipsTheRowsBeforeItAndFetchesOneExtraToKnowIfThereIsANextPage() {
        Paging paging = new Paging(3, 20);
        assertThat(paging.offset()).isEqualTo(60);
        assertThat(paging.probe()).isEqualTo(21);
    }

    @ParameterizedTest
    @CsvSource({"-1,20", "0,0", "0,101", "101,100", "2147483647,100", "0,-5"})
    void outOfRangePagingIsInvalidInput(int page, int size) {
        assertThatThrownBy(() -> new Paging(page, size)).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void theDeepestAllowedPageIsAccepted() {
        assertThat(new Paging(100, 100).offset()).isEqualTo(Paging.MAX_OFFSET);
    }
}
