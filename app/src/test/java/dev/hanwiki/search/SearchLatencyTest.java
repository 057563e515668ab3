package dev.hanwiki.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hanwiki.search.SearchLatency.QueryClass;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class SearchLatencyTest {

    private static QueryClass classOf(String q, Long category) {
        return QueryClass.of(new SearchRequest(q, category, 0, 10));
    }

    @Test
    void queriesFallIntoTheirClass() {
        assertThat(classOf("경복궁", null)).isEqualTo(QueryClass.ONE_WORD);
        assertThat(classOf("  경복궁  ", null)).isEqualTo(QueryClass.ONE_WORD);
        assertThat(classOf("서울 여행 경복궁", null)).isEqualTo(QueryClass.WORDS);
        assertThat(classOf("경복궁", 26L)).isEqualTo(QueryClass.FILTERED);
        assertThat(classOf("\"북촌 한옥마을\" 여행", 26L)).isEqualTo(QueryClass.PHRASE);
    }

    @Test
    void eachSearchIsTimedUnderItsClassOnly() {
        var registry = new SimpleMeterRegistry();
        var latency = new SearchLatency(registry);
        assertThat(latency.time(new SearchRequest("\"북촌 한옥마을\"", null, 0, 10), () -> "answer")).isEqualTo("answer");
        assertThat(registry.get("hanwiki.search.latency").tag("class", "phrase").timer().count()).isEqualTo(1);
        assertThat(registry.get("hanwiki.search.latency").tag("class", "one-word").timer().count()).isZero();
    }
}
