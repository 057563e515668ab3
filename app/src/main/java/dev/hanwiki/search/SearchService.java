package dev.hanwiki.search;

import dev.hanwiki.platform.ResultSlice;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;

/**
 * Answers search calls from the node's own index ({@link SearchEngine}) and decorates the page
 * of hits with what the index does not keep exactly: author nicknames and current view and
 * like counts ({@link HitDetails}, one query). If no database answers, that costs the
 * decoration, not the search: hits keep the counts the index holds and
 * {@code authorNickname: null}.
 */
@Service
class SearchService {

    private static final Logger log = LoggerFactory.getLogger(SearchService.class);

    private final SearchEngine engine;
    private final Categories categories;
    private final HitDetails details;
    private final SearchCache cache;
    private final SearchLatency latency;

    SearchService(SearchEngine engine, Categories categories, HitDetails details, SearchCache cache, SearchLatency latency) {
        this.engine = engine;
        this.categories = categories;
        this.details = details;
        this.cache = cache;
        this.latency = latency;
    }

    /** Through the cache: at most {@code hanwiki.search-cache.staleness} behind this node's index. */
    SearchCache.CachedSearch search(SearchRequest request) {
        return latency.time(request, () -> cache.get(request, () -> searchIndex(request)));
    }

    private SearchCache.Computed searchIndex(SearchRequest request) {
        SearchEngine.Result result = engine.search(request);
        Map<Long, HitDetails.Details> live = detailsOf(result.hits());
        return new SearchCache.Computed(respond(request, result, categories, live == null ? Map.of() : live),
                live == null || result.partial(), result.triggers());
    }

    /** An answer straight from the index, past the cache and the latency metrics, and the pages it found. */
    record Uncached(SearchResponse response, List<PostDocument> pages, boolean detailsFailed) {
    }

    /** {@link #search} without the cache, for the warm-up ({@link SearchWarmup}): nothing is cached or counted. */
    Uncached uncached(SearchRequest request, boolean withDetails) {
        SearchEngine.Result result = engine.search(request);
        Map<Long, HitDetails.Details> live = withDetails ? detailsOf(result.hits()) : Map.of();
        return new Uncached(respond(request, result, categories, live == null ? Map.of() : live),
                result.hits().stream().map(SearchEngine.Hit::post).toList(), live == null);
    }

    /** The contract's shape for an engine result (shared with the in-process benchmark). */
    static SearchResponse respond(SearchRequest request, SearchEngine.Result result, Categories categories,
            Map<Long, HitDetails.Details> details) {
        List<SearchHit> hits = result.hits().stream().map(hit -> {
            PostDocument post = hit.post();
            HitDetails.Details live = details.get(post.id());
            return new SearchHit(post.id(), post.title(), hit.snippet(), post.authorId(),
                    live == null ? null : live.authorNickname(),
                    live == null ? post.viewCount() : live.viewCount(),
                    live == null ? post.likeCount() : live.likeCount(),
                    post.createdAt());
        }).toList();
        Map<String, Long> facets = new LinkedHashMap<>();
        result.facets().entrySet().stream()
                .map(e -> Map.entry(categories.keyOf(e.getKey()), e.getValue()))
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> facets.merge(e.getKey(), e.getValue(), Long::sum));
        return new SearchResponse(ResultSlice.of(hits, request.page(), request.size(), result.hasMore()),
                result.suggestion(), result.rewrittenFrom(), facets);
    }

    /** Nicknames and live counts of the hits; null when the database could not say (the answer is partial). */
    private Map<Long, HitDetails.Details> detailsOf(List<SearchEngine.Hit> hits) {
        if (hits.isEmpty()) {
            return Map.of();
        }
        try {
            return details.of(hits.stream().map(h -> h.post().id()).toList());
        } catch (DataAccessException e) {
            log.warn("Hit details unavailable, answering search without them (not cached): {}", e.getMessage());
            return null;
        }
    }
}
