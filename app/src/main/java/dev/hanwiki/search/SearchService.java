package dev.hanwiki.search;

import dev.hanwiki.platform.ResultSlice;
import dev.hanwiki.post.AuthorNicknames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;

/**
 * Answers search calls from the node's own index and decorates the page of hits with author
 * nicknames (one IN query on the replica, or the primary while the replica is down). If no
 * database answers, that costs the nicknames, not the search: results come back with
 * {@code authorNickname: null}.
 */
@Service
class SearchService {

    private static final Logger log = LoggerFactory.getLogger(SearchService.class);

    private final PostIndex index;
    private final AuthorNicknames nicknames;

    SearchService(PostIndex index, AuthorNicknames nicknames) {
        this.index = index;
        this.nicknames = nicknames;
    }

    SearchResponse search(SearchRequest request) {
        Optional<Query> parsed = PostQueries.parse(index.analyzer(), request.q());
        if (parsed.isEmpty()) {
            return SearchResponse.empty(request);
        }
        Query query = PostQueries.inCategory(parsed.get(), request.categoryId());
        IndexPage page;
        try {
            page = index.search(query, request.offset(), request.size());
        } catch (IndexSearcher.TooManyClauses e) {
            // Input that expands past Lucene's clause limit is treated like any unmatchable text.
            log.debug("Search text expanded to too many clauses: {}", e.getMessage());
            page = IndexPage.EMPTY;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<Long, String> names = nicknamesOf(page.hits());
        List<SearchHit> hits = page.hits().stream()
                .map(doc -> new SearchHit(doc.id(), doc.title(), Snippets.of(doc.content()), doc.authorId(),
                        names.get(doc.authorId()), doc.viewCount(), doc.likeCount(), doc.createdAt()))
                .toList();
        return SearchResponse.of(ResultSlice.of(hits, request.page(), request.size(), page.hasMore()));
    }

    private Map<Long, String> nicknamesOf(List<PostDocument> hits) {
        if (hits.isEmpty()) {
            return Map.of();
        }
        try {
            return nicknames.of(hits.stream().map(PostDocument::authorId).toList());
        } catch (DataAccessException e) {
            log.warn("Author nicknames unavailable, answering search without them: {}", e.getMessage());
            return Map.of();
        }
    }
}
