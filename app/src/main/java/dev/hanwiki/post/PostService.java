package dev.hanwiki.post;

import java.time.Clock;
import java.time.Instant;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Post use cases. Each write is one primary transaction: the row change, its revision and the
 * read-back for the response. Nothing else happens on the write path; the index and caches
 * learn about the change from the binlog.
 */
@Service
class PostService {

    private final PostRepository posts;
    private final CurrentUser currentUser;
    private final TransactionTemplate transaction;
    private final Clock clock;

    PostService(PostRepository posts, CurrentUser currentUser, PlatformTransactionManager transactionManager, Clock clock) {
        this.posts = posts;
        this.currentUser = currentUser;
        this.transaction = new TransactionTemplate(transactionManager);
        this.clock = clock;
    }

    PostDetail create(PostRequest request) {
        long author = currentUser.id();
        return transaction.execute(status -> {
            requireCategory(request);
            Instant now = clock.instant();
            long id = posts.insert(request, author, now);
            posts.insertRevision(id, author, now);
            return posts.findLiveOnPrimary(id).orElseThrow(() -> new IllegalStateException("post " + id + " vanished in its own transaction"));
        });
    }

    PostDetail update(long id, PostRequest request) {
        long editor = currentUser.id();
        return transaction.execute(status -> {
            requireCategory(request);
            Instant now = clock.instant();
            if (!posts.update(id, request, now)) {
                throw new PostNotFoundException(id);
            }
            posts.insertRevision(id, editor, now);
            return posts.findLiveOnPrimary(id).orElseThrow(() -> new PostNotFoundException(id));
        });
    }

    void delete(long id) {
        transaction.executeWithoutResult(status -> {
            if (!posts.softDelete(id, clock.instant())) {
                throw new PostNotFoundException(id);
            }
        });
    }

    PostDetail find(long id) {
        return posts.findLive(id).orElseThrow(() -> new PostNotFoundException(id));
    }

    private void requireCategory(PostRequest request) {
        if (request.categoryId() != null && !posts.categoryExists(request.categoryId())) {
            throw new CategoryNotFoundException(request.categoryId());
        }
    }
}
