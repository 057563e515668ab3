package dev.hanwiki.post;

import dev.hanwiki.platform.CurrentUser;
import dev.hanwiki.platform.PrimaryWrites;
import java.time.Clock;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;

/**
 * One like per user and post. Each call is one primary transaction that moves the counter and
 * the like row together; a refusal (already liked, not liked) rolls the counter back with it.
 */
@Service
class LikeService {

    private final LikeRepository likes;
    private final CurrentUser currentUser;
    private final PrimaryWrites writes;
    private final Clock clock;

    LikeService(LikeRepository likes, CurrentUser currentUser, PrimaryWrites writes, Clock clock) {
        this.likes = likes;
        this.currentUser = currentUser;
        this.writes = writes;
        this.clock = clock;
    }

    LikeStatus like(long postId) {
        long userId = currentUser.require().id();
        return writes.inTransaction(() -> {
            if (!likes.addToCount(postId, 1)) {
                throw new PostNotFoundException(postId);
            }
            try {
                likes.insert(postId, userId, clock.instant());
            } catch (DuplicateKeyException e) {
                throw new AlreadyLikedException(postId);
            }
            return new LikeStatus(likes.countOnPrimary(postId), true);
        });
    }

    LikeStatus unlike(long postId) {
        long userId = currentUser.require().id();
        return writes.inTransaction(() -> {
            if (!likes.addToCount(postId, -1)) {
                throw new PostNotFoundException(postId);
            }
            if (!likes.delete(postId, userId)) {
                throw new NotLikedException(postId);
            }
            return new LikeStatus(likes.countOnPrimary(postId), false);
        });
    }
}
