package dev.hanwiki.search;

import static dev.hanwiki.search.PostDocuments.inCategory;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CategoryFacetsTest {

    @TempDir
    Path dir;

    @Test
    void smallMatchSetIsCountedExactlyAndNamedByCategory() throws IOException {
        try (TestSearch search = TestSearch.open(dir).add(
                inCategory(1, "김치", "김치 담그기", 23),
                inCategory(2, "김치찌개", "김치로 끓인 찌개", 23),
                inCategory(3, "김치의 역사", "김치는 삼국 시대부터", 7),
                inCategory(4, "김치 냉장고", "김치를 보관하는 가전", 17),
                inCategory(5, "된장", "콩으로 만든 장", 23))) {
            SearchEngine.Result result = search.search("김치");

            assertThat(result.facets()).isEqualTo(Map.of(23L, 2L, 7L, 1L, 17L, 1L));
            assertThat(result.facetsExact()).isTrue();
            assertThat(search.respond("김치").categoryFacets()).containsExactly(
                    Map.entry("요리", 2L), Map.entry("하드웨어", 1L), Map.entry("한국사", 1L));
        }
    }

    @Test
    void categoryFilterDoesNotNarrowTheFacetsSoOtherCategoriesStayVisible() throws IOException {
        try (TestSearch search = TestSearch.open(dir).add(
                inCategory(1, "김치", "김치 담그기", 23),
                inCategory(2, "김치의 역사", "김치는 삼국 시대부터", 7))) {
            SearchEngine.Result result = search.search("김치", 23L);

            assertThat(result.hits()).extracting(h -> h.post().id()).containsExactly(1L);
            assertThat(result.facets()).isEqualTo(Map.of(23L, 1L, 7L, 1L));
        }
    }

    @Test
    void hugeMatchSetIsEstimatedFromABoundedSampleOfEverySegment() throws IOException {
        int pages = 3 * CategoryFacets.BUDGET;
        try (TestSearch search = TestSearch.open(dir)) {
            for (int i = 0; i < pages; i++) {
                // Category 1 holds half the pages, 2 a third, 3 a sixth.
                long category = i % 6 < 3 ? 1 : i % 6 < 5 ? 2 : 3;
                search.index.writer().upsert(new PostDocument(i + 1, "공통 " + i, "공통 본문", category, 1, 0, 0,
                        PostDocuments.CREATED, PostDocuments.CREATED, 1));
                if (i % 7_000 == 6_999) {
                    search.index.writer().commit(Map.of()); // several segments
                }
            }
            search.index.writer().refresh();

            SearchEngine.Result result = search.search("공통");

            assertThat(result.facetsExact()).isFalse();
            assertThat(result.totalExact()).isFalse(); // "at least" beyond the threshold
            assertThat(result.facets().get(1L)).isCloseTo(pages / 2, org.assertj.core.data.Percentage.withPercentage(5));
            assertThat(result.facets().get(2L)).isCloseTo(pages / 3, org.assertj.core.data.Percentage.withPercentage(5));
            assertThat(result.facets().get(3L)).isCloseTo(pages / 6, org.assertj.core.data.Percentage.withPercentage(8));
        }
    }

    @Test
    void tallyCountsSmallIdsInItsArrayAndAnyOtherIdBesideThem() {
        CategoryFacets.Tally tally = new CategoryFacets.Tally();
        long[] ids = {3, 3, 0, CategoryFacets.Tally.DENSE - 1, CategoryFacets.Tally.DENSE, 5_000_000_000L, -2, 3, -2};
        for (long id : ids) {
            tally.add(id);
        }
        Map<Long, Long> seen = new java.util.HashMap<>();
        tally.forEach((id, n) -> seen.merge(id, n, Long::sum));
        assertThat(seen).containsExactlyInAnyOrderEntriesOf(Map.of(3L, 3L, 0L, 1L, (long) CategoryFacets.Tally.DENSE - 1, 1L,
                (long) CategoryFacets.Tally.DENSE, 1L, 5_000_000_000L, 1L, -2L, 2L));
        tally.clear();
        tally.add(7);
        Map<Long, Long> after = new java.util.HashMap<>();
        tally.forEach((id, n) -> after.merge(id, n, Long::sum));
        assertThat(after).as("cleared between segments").containsExactlyEntriesOf(Map.of(7L, 1L));
    }
}
