package dev.hanwiki.post;

import dev.hanwiki.platform.DatabaseTime;
import dev.hanwiki.platform.PrimaryDatabase;
import dev.hanwiki.platform.ReplicaReads;
import java.time.Instant;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * SQL for likes. Within a like or unlike transaction the post row is changed first: that takes
 * its exclusive lock before the like row's foreign key check would take a shared one, so two
 * concurrent likes of one post queue on the row instead of deadlocking on a lock upgrade, and
 * {@code like_count} moves exactly with the rows of {@code post_likes}.
 */
@Repository
class LikeRepository {

    private final JdbcClient primary;
    private final ReplicaReads replica;

    LikeRepository(@PrimaryDatabase JdbcClient primary, ReplicaReads replica) {
        this.primary = primary;
        this.replica = replica;
    }

    /** @return false if the post is absent or deleted */
    boolean addToCount(long postId, int delta) {
        return primary.sql("UPDATE posts SET like_count = like_count + :delta WHERE id = :id AND deleted_at IS NULL")
                .param("delta", delta)
                .param("id", postId)
                .update() == 1;
    }

    /** @throws org.springframework.dao.DuplicateKeyException if the user already likes the post */
    void insert(long postId, long userId, Instant now) {
        primary.sql("INSERT INTO post_likes (post_id, user_id, created_at) VALUES (:postId, :userId, :at)")
                .param("postId", postId)
                .param("userId", userId)
                .param("at", DatabaseTime.toColumn(now))
                .update();
    }

    /** @return false if the user did not like the post */
    boolean delete(long postId, long userId) {
        return primary.sql("DELETE FROM post_likes WHERE post_id = :postId AND user_id = :userId")
                .param("postId", postId)
                .param("userId", userId)
                .update() == 1;
    }

    long countOnPrimary(long postId) {
        return primary.sql("SELECT like_count FROM posts WHERE id = :id").param("id", postId).query(Long.class).single();
    }

    boolean likes(long postId, long userId) {
        return replica.query(db -> db.sql("SELECT COUNT(*) FROM post_likes WHERE post_id = :postId AND user_id = :userId")
                .param("postId", postId)
                .param("userId", userId)
                .query(Long.class).single() > 0);
    }
}
