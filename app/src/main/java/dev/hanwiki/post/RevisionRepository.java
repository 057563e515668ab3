package dev.hanwiki.post;

import dev.hanwiki.platform.DatabaseTime;
import dev.hanwiki.platform.Paging;
import dev.hanwiki.platform.ReplicaReads;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Repository;

/**
 * Reads of post history. Only live posts show their history: a deleted post's revisions stay in
 * the database but are as hidden as the post. Newest first walks the primary key
 * (post_id, version) backwards.
 */
@Repository
class RevisionRepository {

    private final ReplicaReads replica;

    RevisionRepository(ReplicaReads replica) {
        this.replica = replica;
    }

    List<RevisionSummary> page(long postId, Paging paging) {
        return replica.query(db -> db.sql("""
                        SELECT r.version, r.title, r.category_id, r.author_id, u.nickname, r.created_at
                        FROM post_revisions r
                        JOIN posts p ON p.id = r.post_id AND p.deleted_at IS NULL
                        JOIN users u ON u.id = r.author_id
                        WHERE r.post_id = :postId
                        ORDER BY r.version DESC
                        LIMIT :limit OFFSET :offset
                        """)
                .param("postId", postId)
                .param("limit", paging.probe())
                .param("offset", paging.offset())
                .query((rs, row) -> new RevisionSummary(rs.getLong("version"), rs.getString("title"),
                        rs.getObject("category_id", Long.class), rs.getLong("author_id"), rs.getString("nickname"),
                        DatabaseTime.fromColumn(rs.getObject("created_at", LocalDateTime.class))))
                .list());
    }

    Optional<Revision> find(long postId, long version) {
        return replica.query(db -> db.sql("""
                        SELECT r.post_id, r.version, r.title, r.content, r.category_id, r.author_id, u.nickname, r.created_at
                        FROM post_revisions r
                        JOIN posts p ON p.id = r.post_id AND p.deleted_at IS NULL
                        JOIN users u ON u.id = r.author_id
                        WHERE r.post_id = :postId AND r.version = :version
                        """)
                .param("postId", postId)
                .param("version", version)
                .query(RevisionRepository::revision)
                .optional());
    }

    private static Revision revision(ResultSet rs, int row) throws SQLException {
        return new Revision(rs.getLong("post_id"), rs.getLong("version"), rs.getString("title"), rs.getString("content"),
                rs.getObject("category_id", Long.class), rs.getLong("author_id"), rs.getString("nickname"),
                DatabaseTime.fromColumn(rs.getObject("created_at", LocalDateTime.class)));
    }
}
