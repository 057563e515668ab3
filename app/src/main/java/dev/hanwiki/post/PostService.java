package dev.hanwiki.post;

import dev.hanwiki.platform.CurrentUser;
import dev.hanwiki.platform.Paging;
import dev.hanwiki.platform.PrimaryWrites;
import dev.hanwiki.platform.ResultSlice;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.springframework.stereotype.Service;

/**
 * Post use cases. Each write is one primary transaction: the row change, its revision and the
 * read-back for the response. Edits and deletes lock the row first and then decide, in this
 * order: absent (404), not the author (403), stale version (409). Nothing else happens on the
 * write path; the index and caches learn about the change from the binlog.
 */
@Service
class PostService {

    private final PostRepository posts;
    private final LikeRepository likes;
    private final ViewCounter views;
    private final CurrentUser currentUser;
    private final PrimaryWrites writes;
    private final Clock clock;

    PostService(PostRepository posts, LikeRepository likes, ViewCounter views, CurrentUser currentUser,
            PrimaryWrites writes, Clock clock) {
        this.posts = posts;
        this.likes = likes;
        this.views = views;
        this.currentUser = currentUser;
        this.writes = writes;
        this.clock = clock;
    }

    PostDetail create(PostRequest request) {
        long author = currentUser.require().id();
        return writes.inTransaction(() -> {
            requireCategory(request);
            Instant now = clock.instant();
            long id = posts.insert(request, author, now);
            posts.insertRevision(id, author, now);
            return posts.findLiveOnPrimary(id).orElseThrow(() -> new IllegalStateException("post " + id + " vanished in its own transaction"));
        });
    }

    /** @param expectedVersion the version the edit started from (body field or If-Match) */
    PostDetail update(long id, PostRequest request, long expectedVersion) {
        long editor = currentUser.require().id();
        return writes.inTransaction(() -> {
            PostRepository.LockedPost current = lockOwned(id, editor);
            if (current.version() != expectedVersion) {
                throw new VersionConflictException(id, expectedVersion, current.version());
            }
            requireCategory(request);
            Instant now = clock.instant();
            posts.update(id, request, now);
            posts.insertRevision(id, editor, now);
            return posts.findLiveOnPrimary(id).orElseThrow(() -> new PostNotFoundException(id));
        });
    }

    void delete(long id) {
        long caller = currentUser.require().id();
        writes.inTransaction(() -> {
            lockOwned(id, caller);
            posts.softDelete(id, clock.instant());
        });
    }

    /** Every successful detail read counts one view (in memory; see {@link ViewCounter}). */
    PostDetail read(long id) {
        PostDetail post = posts.findLive(id).orElseThrow(() -> new PostNotFoundException(id));
        views.record(id);
        boolean liked = currentUser.find().map(reader -> likes.likes(id, reader.id())).orElse(false);
        return post.seenBy(views.unflushed(id), liked);
    }

    ResultSlice<PostSummary> list(Long categoryId, Paging paging) {
        List<PostSummary> rows = posts.page(categoryId, paging);
        // Only an empty page can hide a wrong filter, so only then is the category looked up.
        if (rows.isEmpty() && categoryId != null && !posts.categoryExists(categoryId)) {
            throw new CategoryNotFoundException(categoryId);
        }
        boolean hasNext = rows.size() > paging.size();
        return ResultSlice.of(hasNext ? rows.subList(0, paging.size()) : rows, paging.page(), paging.size(), hasNext);
    }

    private PostRepository.LockedPost lockOwned(long id, long caller) {
        PostRepository.LockedPost post = posts.lockLive(id).orElseThrow(() -> new PostNotFoundException(id));
        if (post.authorId() != caller) {
            throw new NotPostAuthorException(id);
        }
        return post;
    }

    private void requireCategory(PostRequest request) {
        if (request.categoryId() != null && !posts.categoryExistsOnPrimary(request.categoryId())) {
            throw new CategoryNotFoundException(request.categoryId());
        }
    }
}
