package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The pools and the server threads are sized above what the limiter can admit (ADR 0093). */
class OverloadSizingTest {

    private static DataSourceSettings pools(int size) {
        var pool = new DataSourceSettings.Pool("jdbc:mysql://127.0.0.1:1/hanwiki", "u", "p", size,
                Duration.ofMillis(500), Duration.ofSeconds(20), Duration.ZERO);
        return new DataSourceSettings(pool, pool);
    }

    private static OverloadSettings defaults() {
        return new OverloadSettings(true, 8, 12, 16, Duration.ofMillis(50), 0.9, Duration.ofMillis(500),
                0.7, 0.25, 0.05, 100, Duration.ofMillis(100), Duration.ofSeconds(1), 3);
    }

    @Test
    void theWorstCaseCountsTheLimitPlusEveryPartitionsGuarantee() {
        // 16 + ceil(11.2) + ceil(4) + ceil(0.8)
        assertThat(OverloadSizing.worstCaseInflight(defaults())).isEqualTo(16 + 12 + 4 + 1);
    }

    @Test
    void theDefaultsFit() {
        OverloadSizing.check(defaults(), pools(40), 200);
    }

    @Test
    void aPoolSmallerThanTheLimiterCanAdmitStopsStartUp() {
        assertThatThrownBy(() -> OverloadSizing.check(defaults(), pools(35), 200))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("maximum-pool-size=35")
                .hasMessageContaining("Raise the pool to 36");
    }

    @Test
    void aBacklogThatDoesNotFitTheServerThreadsStopsStartUp() {
        assertThatThrownBy(() -> OverloadSizing.check(defaults(), pools(40), 120))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("backlog-size=100");
    }
}
