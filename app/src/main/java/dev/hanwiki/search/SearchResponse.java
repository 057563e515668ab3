package dev.hanwiki.search;

import dev.hanwiki.platform.ResultSlice;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The {@code data} of a search call (contract: architecture §4). {@code suggestion} is the
 * did-you-mean text or null; {@code rewrittenFrom} says whether the query was replaced: null
 * when the results are for the query as typed (a suggestion is then only offered), else the
 * query as typed, and the results are those of {@code suggestion} (the keyboard-layout rescue,
 * {@code dkssud} → 안녕: "showing results for 안녕, search instead for dkssud").
 * {@code categoryFacets} maps category names to matching pages, largest first (exact for small
 * match sets, estimated from a bounded sample for huge ones, see {@link CategoryFacets}).
 */
record SearchResponse(ResultSlice<SearchHit> results, @Nullable String suggestion, @Nullable String rewrittenFrom,
        Map<String, Long> categoryFacets) {

    SearchResponse {
        categoryFacets = Collections.unmodifiableMap(new LinkedHashMap<>(categoryFacets));
    }

    static SearchResponse empty(SearchRequest request) {
        return new SearchResponse(ResultSlice.of(List.of(), request.page(), request.size(), false), null, null, Map.of());
    }
}
