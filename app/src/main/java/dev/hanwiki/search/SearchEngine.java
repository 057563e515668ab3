package dev.hanwiki.search;

import dev.hanwiki.change.TermHashes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.index.StoredFields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The whole search path inside a node, without the database: parse, analyze, query, collect
 * the top hits, count facets, cut snippets, and suggest when the query finds little. One
 * searcher is acquired per call and released in {@code finally}; nothing here is shared
 * mutable state, so concurrent searches never wait on each other.
 * <p>
 * Work is bounded for every query: the top-k collector counts hits exactly only as far as
 * the page needs (the hits up to the end of the page, plus one to know whether another page
 * exists; beyond, the count is "at least"), so it starts skipping non-competitive documents as
 * soon as it holds a full page; facets visit a bounded sample ({@link CategoryFacets});
 * suggestion work happens only for queries with fewer than {@link Suggestions#FEW} hits.
 */
@Component
final class SearchEngine {

    private static final Logger log = LoggerFactory.getLogger(SearchEngine.class);

    /**
     * One result of a search: the page of hits and what goes with it. {@code rewrittenFrom} is
     * the query as typed when the hits are those of {@code suggestion} instead (the keyboard
     * rescue replaced it), else null: then a suggestion is only a did-you-mean. {@code triggers}:
     * terms one of which a new page must hold to change this result ({@link SearchTerms}); null
     * when any change may (a query of unknown shape, or one that looked for suggestions, which
     * depend on every term in the index).
     */
    record Result(List<Hit> hits, boolean hasMore, long totalHits, boolean totalExact,
            Map<Long, Long> facets, boolean facetsExact, String suggestion, String rewrittenFrom, boolean partial,
            TermHashes triggers) {

        /** Nothing to search for (or text past the clause limit): no page changes that. */
        static Result empty() {
            return new Result(List.of(), false, 0, true, Map.of(), true, null, null, false, TermHashes.of());
        }
    }

    record Hit(PostDocument post, String snippet) {
    }

    private final Searchers searchers;
    private final PostQueryBuilder queries;
    private final Clock clock;
    private final SearchLimits limits;

    /**
     * With the default limits but a time budget of 30 s (tools and tests): they often run the
     * first, cold search of a JVM, which must not come back partial.
     */
    SearchEngine(Searchers searchers, SearchAnalysis analysis, Categories categories, Clock clock) {
        this(searchers, analysis, categories, clock, SearchLimits.defaults().withTimeBudget(Duration.ofSeconds(30)));
    }

    @Autowired
    SearchEngine(Searchers searchers, SearchAnalysis analysis, Categories categories, Clock clock, SearchLimits limits) {
        this.searchers = searchers;
        this.queries = new PostQueryBuilder(analysis, categories);
        this.clock = clock;
        this.limits = limits;
    }

    Result search(SearchRequest request) {
        Instant now = clock.instant();
        long startNanos = System.nanoTime();
        BuiltQuery built = queries.build(request.q(), request.categoryId(), now);
        IndexSearcher shared = searchers.acquire();
        try {
            IndexSearcher searcher = timed(shared, startNanos + limits.timeBudget().toNanos());
            if (!built.searchable()) {
                return Result.empty();
            }
            Collected collected = collect(searcher, built, request);
            String suggestion = null;
            String rewrittenFrom = null;
            boolean suggesting = request.page() == 0 && collected.total() < Suggestions.FEW && !built.plainWords().isEmpty();
            if (suggesting) {
                Optional<String> korean = request.exact() ? Optional.empty()
                        : Suggestions.keyboard(searcher.getIndexReader(), request.q(), built.plainWords());
                if (korean.isPresent()) {
                    BuiltQuery rescued = queries.build(korean.get(), request.categoryId(), now);
                    Collected alternative = rescued.searchable() ? collect(searcher, rescued, request) : null;
                    if (alternative != null && alternative.total() > collected.total()) {
                        // Typed in the wrong input mode: answer the Korean query, say so.
                        built = rescued;
                        collected = alternative;
                        suggestion = korean.get();
                        rewrittenFrom = request.q();
                    }
                }
                if (suggestion == null) {
                    Optional<String> corrected = Suggestions.didYouMean(searcher.getIndexReader(), request.q(), built.plainWords(),
                            limits.suggestionMaxWords(), System.nanoTime() + limits.suggestionBudget().toNanos());
                    if (corrected.isPresent()) {
                        BuiltQuery fixed = queries.build(corrected.get(), request.categoryId(), now);
                        if (fixed.searchable() && count(searcher, fixed.ranked()) > collected.total()) {
                            suggestion = corrected.get();
                        }
                    }
                }
            }
            Query matching = collected.relaxed() ? built.relaxedMatching() : built.matching();
            CategoryFacets.Counts facets = CategoryFacets.count(searcher, matching);
            Snippets snippets = Snippets.forQuery(searcher, built.highlight());
            StoredFields stored = searcher.storedFields();
            ScoreDoc[] docs = collected.top().scoreDocs;
            int from = request.offset();
            int to = Math.min(docs.length, from + request.size());
            List<Hit> hits = new ArrayList<>(Math.max(0, to - from));
            for (int i = from; i < to; i++) {
                PostDocument post = PostFields.fromStored(stored.document(docs[i].doc),
                        PostFields.counts(searcher.getIndexReader(), docs[i].doc));
                hits.add(new Hit(post, snippets.of(docs[i].doc, post.content())));
            }
            TotalHits total = collected.top().totalHits;
            boolean partial = searcher.timedOut();
            if (partial) {
                log.debug("Search for {} chars stopped at its time budget of {}", request.q().length(), limits.timeBudget());
            }
            return new Result(hits, docs.length > to, total.value(), total.relation() == TotalHits.Relation.EQUAL_TO,
                    facets.byCategory(), facets.exact(), suggestion, rewrittenFrom, partial,
                    suggesting ? null : SearchTerms.triggers(matching));
        } catch (IndexSearcher.TooManyClauses e) {
            // Input that expands past Lucene's clause limit is treated like any unmatchable text.
            log.debug("Search text expanded to too many clauses: {}", e.getMessage());
            return Result.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            searchers.release(shared);
        }
    }

    /**
     * A searcher of its own over the acquired reader (cheap: no copying), so this search's time
     * budget does not apply to others: Lucene stops collecting once {@code deadlineNanos}
     * passes and keeps what it found ({@link IndexSearcher#timedOut()}).
     */
    private static IndexSearcher timed(IndexSearcher shared, long deadlineNanos) {
        IndexSearcher searcher = new IndexSearcher(shared.getIndexReader());
        searcher.setSimilarity(shared.getSimilarity());
        searcher.setQueryCache(shared.getQueryCache());
        searcher.setQueryCachingPolicy(shared.getQueryCachingPolicy());
        searcher.setTimeout(() -> System.nanoTime() - deadlineNanos > 0);
        return searcher;
    }

    /** The top hits for the page (and one more, to know whether a next page exists). */
    private record Collected(TopDocs top, boolean relaxed) {
        long total() {
            return top.totalHits.value();
        }
    }

    private static Collected collect(IndexSearcher searcher, BuiltQuery built, SearchRequest request) throws IOException {
        int window = request.offset() + request.size() + 1;
        TopDocs top = top(searcher, built.ranked(), window);
        if (top.totalHits.value() == 0 && built.relaxed() != null) {
            return new Collected(top(searcher, built.relaxed(), window), true);
        }
        return new Collected(top, false);
    }

    /**
     * The top {@code window} hits. The total is exact only up to {@code window} (the contract
     * shows no total): with Lucene's usual 1,000 the collector would have to find 1,000
     * matches before it may skip any, which on a phrase of two frequent words costs more
     * than the rest of the search (docs/bench/search.md).
     */
    static TopDocs top(IndexSearcher searcher, Query query, int window) throws IOException {
        return searcher.search(query, new TopScoreDocCollectorManager(window, Math.max(window, Suggestions.FEW)));
    }

    /** Hits of a query, counted up to {@link Suggestions#FEW} only: enough to compare. */
    private static long count(IndexSearcher searcher, Query query) throws IOException {
        return searcher.search(query, new TopScoreDocCollectorManager(1, Suggestions.FEW)).totalHits.value();
    }
}
