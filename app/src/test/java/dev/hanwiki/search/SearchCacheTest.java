package dev.hanwiki.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hanwiki.cache.ValueCodec;
import dev.hanwiki.change.IndexPosition;
import dev.hanwiki.change.TermHashes;
import java.util.List;
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
        return new SearchCache.CachedSearch(startedAt, position, SearchResponse.empty(REQUEST), partial, null);
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

    private static SearchCache.CachedSearch answer(IndexPosition position, long... triggers) {
        return new SearchCache.CachedSearch(1_200, position, SearchResponse.empty(REQUEST), false,
                triggers == null ? null : TermHashes.of(triggers).toList());
    }

    @Test
    void aPageAddedLaterTouchesOnlyAnswersThatShareATriggerAndWereComputedWithoutIt() {
        SearchCache.Additions additions = new SearchCache.Additions();
        IndexPosition withSecondPage = new IndexPosition(Map.of(0, 12L, 1, 7L));
        additions.add(TermHashes.of(1, 2, 3), withSecondPage);

        assertThat(additions.touch(answer(WITH_THE_PAGE, 3, 9))).isTrue();
        assertThat(additions.touch(answer(WITH_THE_PAGE, 8, 9))).isFalse();
        assertThat(additions.touch(answer(withSecondPage, 3, 9))).as("computed on an index that showed it").isFalse();
        assertThat(additions.touch(answer(new IndexPosition(Map.of(0, 12L, 1, 6L)), 3))).isTrue();
        assertThat(additions.touch(answer(WITH_THE_PAGE, new long[0]))).as("an answer no page can change").isFalse();
    }

    @Test
    void anAnswerOfUnknownTriggersIsTouchedByAnyPageAddedAfterIt() {
        SearchCache.Additions additions = new SearchCache.Additions();
        assertThat(additions.touch(answer(WITH_THE_PAGE, (long[]) null))).isFalse();
        IndexPosition withSecondPage = new IndexPosition(Map.of(0, 12L, 1, 7L));
        additions.add(TermHashes.of(1), withSecondPage);

        assertThat(additions.touch(answer(WITH_THE_PAGE, (long[]) null))).isTrue();
        assertThat(additions.touch(answer(withSecondPage, (long[]) null))).isFalse();
        assertThat(additions.touch(new SearchCache.CachedSearch(1_200, null, SearchResponse.empty(REQUEST), false, List.of()))).isTrue();
        additions.clear();
        assertThat(additions.touch(answer(WITH_THE_PAGE, (long[]) null))).isFalse();
        assertThat(additions.terms()).isZero();
    }

    @Test
    void theTriggersTravelThroughRedis() {
        JsonMapper json = JsonMapper.builder().build();
        ValueCodec<SearchCache.CachedSearch> codec = ValueCodec.json(json, SearchCache.CachedSearch.class);
        SearchCache.CachedSearch stored = answer(WITH_THE_PAGE, Long.MIN_VALUE, -1, 42, Long.MAX_VALUE);

        assertThat(codec.decode(codec.encode(stored)).triggers()).containsExactly(Long.MIN_VALUE, -1L, 42L, Long.MAX_VALUE);
        assertThat(codec.decode(codec.encode(answer(WITH_THE_PAGE, (long[]) null))).triggers()).isNull();
    }
}
