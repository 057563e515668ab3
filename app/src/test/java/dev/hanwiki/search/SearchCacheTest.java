package dev.hanwiki.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hanwiki.cache.ValueCodec;
import dev.hanwiki.change.IndexPosition;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * When a cached search answer may be served (ADR 0033). Both nodes share the L2 answers and
 * one node's indexer can lag the other's: the CI run where a browser found a page through one
 * node and then, through the other, got for a whole minute an answer the lagging node had
 * computed before it indexed that page.
 */
class SearchCacheTest {

    private static final SearchRequest REQUEST = new SearchRequest("커포터푸토", null, 0, 10);
    private static final IndexPosition BEFORE_THE_PAGE = new IndexPosition(Map.of(0, 10L, 1, 7L));
    private static final IndexPosition WITH_THE_PAGE = new IndexPosition(Map.of(0, 11L, 1, 7L));
    /** This node showed the new page and began an epoch at t=1000. */
    private static final SearchCache.Epoch EPOCH = new SearchCache.Epoch(1_000, WITH_THE_PAGE);

    private static SearchCache.CachedSearch answer(long startedAt, IndexPosition position, boolean partial) {
        return new SearchCache.CachedSearch(startedAt, position, SearchResponse.empty(REQUEST), partial);
    }

    @Test
    void anAnswerBegunInThisEpochOnAnIndexThatShowedTheSameChangesIsServed() {
        assertThat(answer(1_200, WITH_THE_PAGE, false).servableIn(EPOCH)).isTrue();
        assertThat(answer(1_000, new IndexPosition(Map.of(0, 12L, 1, 9L)), false).servableIn(EPOCH)).isTrue();
    }

    @Test
    void anAnswerFromANodeWhoseIndexHadNotShownTheChangeYetIsNotServedThoughBegunInThisEpoch() {
        assertThat(answer(1_200, BEFORE_THE_PAGE, false).servableIn(EPOCH)).isFalse();
        // ahead on one partition does not make up for being behind on another
        assertThat(answer(1_200, new IndexPosition(Map.of(0, 10L, 1, 99L)), false).servableIn(EPOCH)).isFalse();
        assertThat(answer(1_200, IndexPosition.NONE, false).servableIn(EPOCH)).isFalse();
        assertThat(answer(1_200, null, false).servableIn(EPOCH)).isFalse();
    }

    @Test
    void anAnswerBegunBeforeTheEpochOrPartialIsNotServed() {
        assertThat(answer(999, WITH_THE_PAGE, false).servableIn(EPOCH)).isFalse();
        assertThat(answer(1_200, WITH_THE_PAGE, true).servableIn(EPOCH)).isFalse();
    }

    @Test
    void theIndexPositionTravelsThroughRedisAndAnEntryWrittenWithoutOneIsNotServed() {
        JsonMapper json = JsonMapper.builder().build();
        ValueCodec<SearchCache.CachedSearch> codec = ValueCodec.json(json, SearchCache.CachedSearch.class);
        SearchCache.CachedSearch stored = answer(1_200, WITH_THE_PAGE, false);

        SearchCache.CachedSearch read = codec.decode(codec.encode(stored));

        assertThat(read.position()).isEqualTo(WITH_THE_PAGE);
        assertThat(read.servableIn(EPOCH)).isTrue();
        ObjectNode older = (ObjectNode) json.readTree(codec.encode(stored));
        assertThat(older.remove("position")).isNotNull();
        assertThat(codec.decode(json.writeValueAsBytes(older)).servableIn(EPOCH)).isFalse();
    }
}
