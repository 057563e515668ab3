package dev.hanwiki.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Background work pauses while requests are short of CPU, but never more than its share: it always finishes. */
class YieldToRequestsTest {

    private static final long MS = 1_000_000;

    @Test
    void itNeverPausesWhileTheRequestsHaveTheCpu() {
        YieldToRequests pacing = new YieldToRequests(() -> false, 2.0, Duration.ofMillis(100));
        for (int i = 0; i < 100; i++) {
            assertThat(pacing.pauseAfter(20 * MS)).isZero();
        }
        assertThat(pacing.paused()).isZero();
    }

    @Test
    void whileTheRequestsAreShortOfCpuItPausesUpToItsShareOfTheWorkInStepsOfAtMostTheStep() {
        YieldToRequests pacing = new YieldToRequests(() -> true, 2.0, Duration.ofMillis(100));
        // 20 ms of work allows 40 ms of pause; the next 20 ms allow 40 more.
        assertThat(pacing.pauseAfter(20 * MS)).isEqualTo(Duration.ofMillis(40));
        assertThat(pacing.pauseAfter(20 * MS)).isEqualTo(Duration.ofMillis(40));
        // 100 ms of work would allow 200 ms: one step of 100 now, the rest after the next piece.
        assertThat(pacing.pauseAfter(100 * MS)).isEqualTo(Duration.ofMillis(100));
        assertThat(pacing.pauseAfter(0)).isEqualTo(Duration.ofMillis(100));
        // Its share is spent: no pause until more work is done.
        assertThat(pacing.pauseAfter(0)).isZero();
        assertThat(pacing.paused()).isEqualTo(Duration.ofMillis(280));
    }

    @Test
    void underPressureThatNeverEndsTheWorkIsAtMostOnePlusTheShareTimesSlower() {
        YieldToRequests pacing = new YieldToRequests(() -> true, 2.0, Duration.ofMillis(100));
        long worked = 0;
        for (int i = 0; i < 2_000; i++) {
            pacing.pauseAfter(20 * MS);
            worked += 20 * MS;
        }
        assertThat(pacing.paused().toNanos()).isLessThanOrEqualTo(2 * worked).isGreaterThan(2 * worked - 100 * MS);
    }

    @Test
    void pressureThatEndsEndsThePauses() {
        AtomicBoolean short_ = new AtomicBoolean(true);
        YieldToRequests pacing = new YieldToRequests(short_::get, 2.0, Duration.ofMillis(100));
        assertThat(pacing.pauseAfter(20 * MS)).isPositive();
        short_.set(false);
        assertThat(pacing.pauseAfter(20 * MS)).isZero();
        short_.set(true);
        // The share not taken while the requests had the CPU is still there: 40 ms of work allow 80, 40 were taken.
        assertThat(pacing.pauseAfter(0)).isEqualTo(Duration.ofMillis(40));
    }

    @Test
    void aShareOfZeroNeverPauses() {
        YieldToRequests pacing = new YieldToRequests(() -> true, 0, Duration.ofMillis(100));
        assertThat(pacing.pauseAfter(1_000 * MS)).isZero();
    }

    @Test
    void aStepThatIsNotPositiveIsRefused() {
        assertThatThrownBy(() -> new YieldToRequests(() -> true, 2.0, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
