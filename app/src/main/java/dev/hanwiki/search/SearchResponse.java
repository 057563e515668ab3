package dev.hanwiki.search;

import dev.hanwiki.platform.ResultSlice;
import java.util.List;
import java.util.Map;

/**
 * The {@code data} of a search call. {@code suggestion} (did-you-mean) and
 * {@code categoryFacets} are part of the contract already but are filled by a later issue:
 * until then they are always {@code null} and empty.
 */
record SearchResponse(ResultSlice<SearchHit> results, String suggestion, Map<String, Long> categoryFacets) {

    SearchResponse {
        categoryFacets = Map.copyOf(categoryFacets);
    }

    static SearchResponse empty(SearchRequest request) {
        return of(ResultSlice.of(List.of(), request.page(), request.size(), false));
    }

    static SearchResponse of(ResultSlice<SearchHit> results) {
        return new SearchResponse(results, null, Map.of());
    }
}
