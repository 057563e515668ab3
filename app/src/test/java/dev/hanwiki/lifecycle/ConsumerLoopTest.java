package dev.hanwiki.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConsumerLoopTest {

    @Test
    void underASteadyStreamAPollWaitsOutTheBatchIntervalAfterAQuietSpellItDoesNot() {
        assertThat(ConsumerLoop.batchWaitMillis(1_000, 100, 1_030)).as("30 ms after a batch").isEqualTo(70);
        assertThat(ConsumerLoop.batchWaitMillis(1_000, 100, 1_100)).as("the interval is over").isZero();
        assertThat(ConsumerLoop.batchWaitMillis(1_000, 100, 5_000)).as("after a quiet spell").isZero();
        assertThat(ConsumerLoop.batchWaitMillis(Long.MIN_VALUE / 2, 100, 0)).as("no batch yet").isZero();
        assertThat(ConsumerLoop.batchWaitMillis(1_000, 0, 1_000)).as("turned off").isZero();
        assertThat(ConsumerLoop.batchWaitMillis(1_000, 100, 400)).as("never more than the interval").isEqualTo(100);
    }
}
