package dev.hanwiki.post;

import dev.hanwiki.platform.Paging;
import dev.hanwiki.platform.ResultSlice;
import java.util.List;
import org.springframework.stereotype.Service;

/** Post history: the saved versions, one of them, and the line diff between two. */
@Service
class RevisionService {

    private final RevisionRepository revisions;
    private final PostRepository posts;

    RevisionService(RevisionRepository revisions, PostRepository posts) {
        this.revisions = revisions;
        this.posts = posts;
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
        return Diffs.between(get(postId, from), get(postId, to));
    }

    /** A hidden (deleted) or absent post answers POST_NOT_FOUND, a missing version of a live one REVISION_NOT_FOUND. */
    private RuntimeException missing(long postId, long version) {
        return posts.isLive(postId) ? new RevisionNotFoundException(postId, version) : new PostNotFoundException(postId);
    }
}
