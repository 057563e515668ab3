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
        return new DataSourceSettings(pool, pool, Duration.ofSeconds(2));
    }

    private static OverloadSettings defaults() {
        return new OverloadSettings(true, 8, 32, 32, Duration.ofMillis(50), 0.5, 0.9, Duration.ofMillis(500),
                0.7, 0.25, 0.05, 100, Duration.ofMillis(100), Duration.ofSeconds(1), 3);
    }

    @Test
    void theWorstCaseCountsTheLimitPlusEveryPartitionsGuarantee() {
        // 32 + ceil(22.4) + ceil(8) + ceil(1.6)
        assertThat(OverloadSizing.worstCaseInflight(defaults())).isEqualTo(32 + 23 + 8 + 2);
    }

    @Test
    void theDefaultsFit() {
        OverloadSizing.check(defaults(), pools(70), 200);
    }

    @Test
    void aPoolSmallerThanTheLimiterCanAdmitStopsStartUp() {
        assertThatThrownBy(() -> OverloadSizing.check(defaults(), pools(60), 200))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("maximum-pool-size=60")
                .hasMessageContaining("Raise the pool to 68");
    }

    @Test
    void aBacklogThatDoesNotFitTheServerThreadsStopsStartUp() {
        assertThatThrownBy(() -> OverloadSizing.check(defaults(), pools(70), 160))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("backlog-size=100");
    }
}
