package dev.hanwiki.post;

import dev.hanwiki.platform.PrimaryDatabase;
import dev.hanwiki.platform.ReplicaReads;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Objects;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;

/**
 * SQL for posts and their revisions. Writes and read-your-write lookups use the primary;
 * {@link #findLive(long)} reads the replica (or the primary while the replica is down). Every statement that changes a post bumps its
 * {@code version}, which is what lets each index ignore replayed, older events.
 */
@Repository
class PostRepository {

    private static final String DETAIL_COLUMNS = """
            SELECT p.id, p.title, p.content, p.author_id, u.nickname, p.category_id, p.view_count,
                   p.like_count, p.created_at, p.updated_at, p.version
            FROM posts p JOIN users u ON u.id = p.author_id
            WHERE p.id = :id AND p.deleted_at IS NULL
            """;

    private final JdbcClient primary;
    private final ReplicaReads replica;

    PostRepository(@PrimaryDatabase JdbcClient primary, ReplicaReads replica) {
        this.primary = primary;
        this.replica = replica;
    }

    boolean categoryExists(long categoryId) {
        return primary.sql("SELECT COUNT(*) FROM categories WHERE id = :id")
                .param("id", categoryId)
                .query(Long.class)
                .single() > 0;
    }

    long insert(PostRequest post, long authorId, Instant now) {
        KeyHolder keys = new GeneratedKeyHolder();
        LocalDateTime at = DatabaseTime.toColumn(now);
        primary.sql("""
                        INSERT INTO posts (title, content, category_id, author_id, version, created_at, updated_at)
                        VALUES (:title, :content, :categoryId, :authorId, 1, :at, :at)
                        """)
                .param("title", post.title())
                .param("content", post.content())
                .param("categoryId", post.categoryId())
                .param("authorId", authorId)
                .param("at", at)
                .update(keys);
        return Objects.requireNonNull(keys.getKey(), "no generated key for posts.id").longValue();
    }

    /** @return false if the post is absent or deleted */
    boolean update(long id, PostRequest post, Instant now) {
        return primary.sql("""
                        UPDATE posts SET title = :title, content = :content, category_id = :categoryId,
                               version = version + 1, updated_at = :at
                        WHERE id = :id AND deleted_at IS NULL
                        """)
                .param("title", post.title())
                .param("content", post.content())
                .param("categoryId", post.categoryId())
                .param("at", DatabaseTime.toColumn(now))
                .param("id", id)
                .update() == 1;
    }

    /** Soft delete: the row and its revisions stay; the version bump marks the change. */
    boolean softDelete(long id, Instant now) {
        LocalDateTime at = DatabaseTime.toColumn(now);
        return primary.sql("""
                        UPDATE posts SET deleted_at = :at, updated_at = :at, version = version + 1
                        WHERE id = :id AND deleted_at IS NULL
                        """)
                .param("at", at)
                .param("id", id)
                .update() == 1;
    }

    /**
     * Snapshots the post's current row as a revision. Copying inside the database (rather than
     * from the request) records exactly what was stored, including the version it got.
     */
    void insertRevision(long postId, long editorId, Instant now) {
        primary.sql("""
                        INSERT INTO post_revisions (post_id, version, title, content, category_id, author_id, created_at)
                        SELECT id, version, title, content, category_id, :editorId, :at FROM posts WHERE id = :id
                        """)
                .param("editorId", editorId)
                .param("at", DatabaseTime.toColumn(now))
                .param("id", postId)
                .update();
    }

    /** Read-your-write lookup on the primary, for the response of a create or edit. */
    Optional<PostDetail> findLiveOnPrimary(long id) {
        return primary.sql(DETAIL_COLUMNS).param("id", id).query(PostRepository::detail).optional();
    }

    Optional<PostDetail> findLive(long id) {
        return replica.query(db -> db.sql(DETAIL_COLUMNS).param("id", id).query(PostRepository::detail).optional());
    }

    private static PostDetail detail(ResultSet rs, int row) throws SQLException {
        return new PostDetail(
                rs.getLong("id"),
                rs.getString("title"),
                rs.getString("content"),
                rs.getLong("author_id"),
                rs.getString("nickname"),
                rs.getObject("category_id", Long.class),
                rs.getLong("view_count"),
                rs.getLong("like_count"),
                false, // likes arrive with auth; nobody can have liked a post yet
                DatabaseTime.fromColumn(rs.getObject("created_at", LocalDateTime.class)),
                DatabaseTime.fromColumn(rs.getObject("updated_at", LocalDateTime.class)),
                rs.getLong("version"));
    }
}
