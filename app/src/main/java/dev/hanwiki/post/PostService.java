package dev.hanwiki.post;

import dev.hanwiki.platform.CurrentUser;
import dev.hanwiki.platform.DatabaseUnreachable;
import dev.hanwiki.platform.Paging;
import dev.hanwiki.platform.PrimaryWrites;
import dev.hanwiki.platform.ReadYourWrites;
import dev.hanwiki.platform.ResultSlice;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;

/**
 * Post use cases. Each write is one primary transaction: the row change, its revision and the
 * read-back for the response. Edits and deletes lock the row first and then decide, in this
 * order: absent (404), not the author (403), no version named (428), stale version (409).
 * Authorization comes before the preconditions (architecture §4). Nothing else happens on the
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
    private final PostCaches caches;
    private final PostCacheSettings cacheSettings;
    private final ReadYourWrites readYourWrites;

    PostService(PostRepository posts, LikeRepository likes, ViewCounter views, CurrentUser currentUser,
            PrimaryWrites writes, Clock clock, PostCaches caches, PostCacheSettings cacheSettings,
            ReadYourWrites readYourWrites) {
        this.posts = posts;
        this.likes = likes;
        this.views = views;
        this.currentUser = currentUser;
        this.writes = writes;
        this.clock = clock;
        this.caches = caches;
        this.cacheSettings = cacheSettings;
        this.readYourWrites = readYourWrites;
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

    /** @param expectedVersion the version the edit started from (body field or If-Match); null if it named none (428) */
    PostDetail update(long id, PostRequest request, Long expectedVersion) {
        long editor = currentUser.require().id();
        return writes.inTransaction(() -> {
            PostRepository.LockedPost current = lockOwned(id, editor);
            if (expectedVersion == null) {
                throw new VersionRequiredException();
            }
            if (current.version() != expectedVersion) {
                return replayed(id, request, expectedVersion, current.version())
                        .orElseThrow(() -> new VersionConflictException(id, expectedVersion, current.version()));
            }
            requireCategory(request);
            Instant now = clock.instant();
            posts.update(id, request, now);
            posts.insertRevision(id, editor, now);
            return posts.findLiveOnPrimary(id).orElseThrow(() -> new PostNotFoundException(id));
        });
    }

    /**
     * The post as this edit left it, when the edit is a resend of one that already committed: the
     * post is exactly one version past the one it started from and holds exactly its text (ADR
     * 0013, amended). nginx resends a PUT (idempotent by HTTP's rules) to the other node when the
     * first died or did not answer in time, which may be after its commit; the resend must get the
     * answer the first attempt would have, not a conflict with itself. Only the author edits, so
     * that version is the caller's own.
     */
    private Optional<PostDetail> replayed(long id, PostRequest request, long expected, long current) {
        if (current != expected + 1) {
            return Optional.empty();
        }
        return posts.findLiveOnPrimary(id).filter(post -> post.title().equals(request.title())
                && post.content().equals(request.content()) && Objects.equals(post.categoryId(), request.categoryId()));
    }

    void delete(long id) {
        long caller = currentUser.require().id();
        writes.inTransaction(() -> {
            lockOwned(id, caller);
            posts.softDelete(id, clock.instant());
        });
    }

    /**
     * Every successful detail read counts one view (in memory; see {@link ViewCounter}), cache
     * hit or not. The row comes from the cache unless the reader wrote recently (then from the
     * database, which honours its write position); what is per reader (its like, the views not
     * yet flushed) is added outside the cache.
     */
    PostDetail read(long id) {
        Optional<PostDetail> row = readYourWrites.carriesWritePosition() ? posts.findLive(id) : caches.detail(id, posts::findLive);
        PostDetail post = row.orElseThrow(() -> new PostNotFoundException(id));
        views.record(id);
        boolean liked = currentUser.find().map(reader -> likes.likes(id, reader.id())).orElse(false);
        return post.seenBy(views.unflushed(id), liked);
    }

    ResultSlice<PostSummary> list(Long categoryId, Paging paging) {
        List<PostSummary> rows;
        boolean hasNext;
        if (cacheSettings.cachesList(paging) && !readYourWrites.carriesWritePosition()) {
            PostCaches.CachedPage page = caches.page(categoryId, paging,
                    (fromPrimary, startedAt) -> pageToCache(categoryId, paging, fromPrimary, startedAt));
            rows = caches.withAnnouncedCounters(page.rows());
            hasNext = page.hasNext();
        } else {
            List<PostSummary> loaded = posts.page(categoryId, paging);
            hasNext = loaded.size() > paging.size();
            rows = hasNext ? loaded.subList(0, paging.size()) : loaded;
        }
        // Only an empty page can hide a wrong filter, so only then is the category looked up
        // (outside the cache: an unknown category is a 400 for every reader, never a cached page).
        if (rows.isEmpty() && categoryId != null && !posts.categoryExists(categoryId)) {
            throw new CategoryNotFoundException(categoryId);
        }
        return ResultSlice.of(rows, paging.page(), paging.size(), hasNext);
    }

    /**
     * A list page for the cache: from the primary while a recent change may not have reached the
     * replica. If the primary cannot answer (restarting, cut off), the replica's page, which may
     * lack that change: served to this reader, stamped so that the cache never serves it again.
     */
    private PostCaches.CachedPage pageToCache(Long categoryId, Paging paging, boolean fromPrimary, long startedAt) {
        List<PostSummary> loaded;
        long stamp = startedAt;
        if (fromPrimary) {
            try {
                loaded = posts.pageOnPrimary(categoryId, paging);
            } catch (DataAccessException primaryDown) {
                if (!DatabaseUnreachable.is(primaryDown)) {
                    throw primaryDown;
                }
                loaded = posts.page(categoryId, paging);
                stamp = Long.MIN_VALUE;
            }
        } else {
            loaded = posts.page(categoryId, paging);
        }
        boolean more = loaded.size() > paging.size();
        return new PostCaches.CachedPage(stamp, more ? loaded.subList(0, paging.size()) : loaded, more);
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
