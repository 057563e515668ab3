package dev.hanwiki.post;

import dev.hanwiki.cache.TieredCache;
import dev.hanwiki.cache.TieredCaches;
import dev.hanwiki.platform.Paging;
import dev.hanwiki.platform.ResultSlice;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * Post history: the saved versions, one of them, and the line diff between two. Diffs are
 * bounded and cached per (post, from, to) ({@link DiffSettings}); a cached diff is served only
 * while the post is live, so a deleted post's history stays hidden.
 */
@Service
class RevisionService {

    private final RevisionRepository revisions;
    private final PostRepository posts;
    private final DiffSettings diffSettings;
    private final TieredCache<RevisionDiff> diffs;

    RevisionService(RevisionRepository revisions, PostRepository posts, DiffSettings diffSettings, TieredCaches caches) {
        this.revisions = revisions;
        this.posts = posts;
        this.diffSettings = diffSettings;
        this.diffs = caches.region(diffSettings.region(), RevisionDiff.class);
    }

    ResultSlice<RevisionSummary> list(long postId, Paging paging) {
        List<RevisionSummary> rows = revisions.page(postId, paging);
        if (rows.isEmpty() && !posts.isLive(postId)) {
            throw new PostNotFoundException(postId);
        }
        boolean hasNext = rows.size() > paging.size();
        return ResultSlice.of(hasNext ? rows.subList(0, paging.size()) : rows, paging.page(), paging.size(), hasNext);
    }

    Revision get(long postId, long version) {
        return revisions.find(postId, version).orElseThrow(() -> missing(postId, version));
    }

    RevisionDiff diff(long postId, long from, long to) {
        boolean[] computed = {false};
        RevisionDiff diff = diffs.await(postId + ":" + from + ":" + to, k -> {
            computed[0] = true;
            return Optional.of(Diffs.between(get(postId, from), get(postId, to), diffSettings.maxLines(), diffSettings.maxChars()));
        }, Optional::isPresent).orElseThrow();
        // Computed here: get() has just checked the post. From the cache: check it is still live.
        if (!computed[0] && !posts.isLive(postId)) {
            throw new PostNotFoundException(postId);
        }
        return diff;
    }

    /** A hidden (deleted) or absent post answers POST_NOT_FOUND, a missing version of a live one REVISION_NOT_FOUND. */
    private RuntimeException missing(long postId, long version) {
        return posts.isLive(postId) ? new RevisionNotFoundException(postId, version) : new PostNotFoundException(postId);
    }
}
