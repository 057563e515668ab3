package dev.hanwiki.post;

import dev.hanwiki.platform.DatabaseTime;
import dev.hanwiki.platform.PrimaryDatabase;
import dev.hanwiki.platform.ReplicaReads;
import java.time.Instant;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * SQL for likes. Within a like or unlike transaction the counter row ({@code post_counters},
 * ADR 0080) is changed first: that takes its exclusive lock (and a shared one on the post's row,
 * which it checks is live) before the like row is written, so two concurrent likes of one post
 * queue on the counter row instead of deadlocking, and {@code like_count} moves exactly with
 * the rows of {@code post_likes}. The page's own row is never written by a like.
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
        // Creates the counter row if a post has none (pages loaded straight into the database).
        return primary.sql("""
                        INSERT INTO post_counters (post_id, view_count, like_count, version)
                        SELECT p.id, 0, GREATEST(:delta, 0), 1 FROM posts p WHERE p.id = :id AND p.deleted_at IS NULL
                        ON DUPLICATE KEY UPDATE post_counters.like_count = post_counters.like_count + :delta,
                                                post_counters.version = post_counters.version + 1
                        """)
                .param("delta", delta)
                .param("id", postId)
                .update() > 0;
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
        return primary.sql("SELECT like_count FROM post_counters WHERE post_id = :id").param("id", postId).query(Long.class).single();
    }

    boolean likes(long postId, long userId) {
        return replica.query(db -> db.sql("SELECT COUNT(*) FROM post_likes WHERE post_id = :postId AND user_id = :userId")
                .param("postId", postId)
                .param("userId", userId)
                .query(Long.class).single() > 0);
    }
}
