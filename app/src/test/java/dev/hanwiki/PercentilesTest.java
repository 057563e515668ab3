package dev.hanwiki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PercentilesTest {

    private static long[] oneTo(int n) {
        return LongStream.rangeClosed(1, n).toArray();
    }

    @Test
    void nearestRankIsTheCeilingRankNeverInterpolated() {
        assertThat(Percentiles.nearestRank(oneTo(10), 50)).isEqualTo(5);
        assertThat(Percentiles.nearestRank(oneTo(10), 99)).isEqualTo(10);
        assertThat(Percentiles.nearestRank(oneTo(200), 99)).isEqualTo(198);
        assertThat(Percentiles.nearestRank(oneTo(200), 50)).isEqualTo(100);
        assertThat(Percentiles.nearestRank(oneTo(1), 99)).isEqualTo(1);
        assertThat(Percentiles.nearestRank(oneTo(3), 100)).isEqualTo(3);
    }

    @Test
    void noValuesHaveNoPercentile() {
        assertThatThrownBy(() -> Percentiles.nearestRank(new long[0], 50)).isInstanceOf(IllegalArgumentException.class);
    }
}
