package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Requests are short of CPU from one of the node's threads waiting for a core on average; unknown is not short. */
class RequestPressureTest {

    @Test
    void oneThreadWaitingForACoreOnAverageIsShort() {
        assertThat(new RequestPressure(() -> 0.99).shortOfCpu()).isFalse();
        assertThat(new RequestPressure(() -> 1.0).shortOfCpu()).isTrue();
        assertThat(new RequestPressure(() -> 3.5).shortOfCpu()).isTrue();
    }

    @Test
    void unknownIsNotShort() {
        assertThat(new RequestPressure(() -> Double.NaN).shortOfCpu()).isFalse();
        assertThat(RequestPressure.NONE.shortOfCpu()).isFalse();
    }
}
