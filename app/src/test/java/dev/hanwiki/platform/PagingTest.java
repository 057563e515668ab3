package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PagingTest {

    @Test
    void aPageSkipsTheRowsBeforeItAndFetchesOneExtraToKnowIfThereIsANextPage() {
        Paging paging = Paging.list(3, 20);
        assertThat(paging.offset()).isEqualTo(60);
        assertThat(paging.probe()).isEqualTo(21);
    }

    @ParameterizedTest
    @CsvSource({"-1,20", "0,0", "0,101", "101,100", "2147483647,100", "0,-5"})
    void outOfRangeListPagingIsInvalidInput(int page, int size) {
        assertThatThrownBy(() -> Paging.list(page, size)).isInstanceOf(InvalidInputException.class)
                .extracting("code").isEqualTo("INVALID_INPUT");
    }

    @Test
    void theDeepestAllowedListPageIsAccepted() {
        assertThat(Paging.list(100, 100).offset()).isEqualTo(Paging.MAX_LIST_OFFSET);
    }

    @ParameterizedTest(name = "page={0} size={1}")
    @CsvSource({"-1,10", "0,0", "0,-5", "0,101", "10,100", "1000,1", "2147483647,100", "100,10"})
    void rankedPagingOutsideTheWindowIsInvalidInput(int page, int size) {
        assertThatThrownBy(() -> Paging.ranked(page, size)).isInstanceOf(InvalidInputException.class)
                .extracting("code").isEqualTo("INVALID_INPUT");
    }

    @ParameterizedTest(name = "page={0} size={1}")
    @CsvSource({"0,1", "0,100", "9,100", "999,1", "99,10"})
    void rankedPagingAtTheEdgesOfTheWindowIsAccepted(int page, int size) {
        assertThat(Paging.ranked(page, size).offset()).isEqualTo(page * size);
    }

    @Test
    void eachRuleSaysWhatIsAllowed() {
        assertThatThrownBy(() -> Paging.list(-1, 10)).hasMessage("page must be zero or more.");
        assertThatThrownBy(() -> Paging.ranked(0, 101)).hasMessage("size must be between 1 and 100.");
        assertThatThrownBy(() -> Paging.list(101, 100)).hasMessage("page * size must be at most 10000.");
        assertThatThrownBy(() -> Paging.ranked(10, 100)).hasMessage(
                "Results are available 1000 deep at most: (page + 1) * size must be at most 1000. Refine the query instead.");
    }

    @Test
    void aListMayGoDeeperThanRankedResults() {
        assertThat(Paging.list(20, 100).offset()).isEqualTo(2000);
        assertThatThrownBy(() -> Paging.ranked(20, 100)).isInstanceOf(InvalidInputException.class);
    }
}
