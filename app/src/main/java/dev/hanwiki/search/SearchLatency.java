package dev.hanwiki.search;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;

/**
 * Search latency by query class ({@code hanwiki_search_latency_seconds{class=...}}), so the search
 * dashboard tells a slow phrase query from a slow one-word query: the HTTP timer has one URI for
 * all of them. Histogram buckets for percentiles, with the 500 ms SLO bound exact.
 */
@Component
class SearchLatency {

    /** What kind of search text a request carries; a small closed set, so the series stay few. */
    enum QueryClass {
        PHRASE("phrase"), FILTERED("filtered"), ONE_WORD("one-word"), WORDS("words");

        private final String tag;

        QueryClass(String tag) {
            this.tag = tag;
        }

        String tag() {
            return tag;
        }

        /** A quoted phrase first (the costliest), then a category filter, then the number of words. */
        static QueryClass of(SearchRequest request) {
            if (request.q().indexOf('"') >= 0) {
                return PHRASE;
            }
            if (request.categoryId() != null) {
                return FILTERED;
            }
            return request.q().strip().split("\\s+").length == 1 ? ONE_WORD : WORDS;
        }
    }

    private final Map<QueryClass, Timer> timers = new EnumMap<>(QueryClass.class);

    SearchLatency(MeterRegistry registry) {
        for (QueryClass c : QueryClass.values()) {
            timers.put(c, Timer.builder("hanwiki.search.latency").tag("class", c.tag())
                    .description("Search answered by this node (through its search cache), by query class")
                    .publishPercentileHistogram().serviceLevelObjectives(Duration.ofMillis(500))
                    .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofSeconds(10))
                    .register(registry));
        }
    }

    <T> T time(SearchRequest request, Supplier<T> search) {
        return timers.get(QueryClass.of(request)).record(search);
    }
}
