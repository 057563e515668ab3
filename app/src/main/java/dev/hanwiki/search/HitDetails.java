package dev.hanwiki.search;

import dev.hanwiki.platform.ReplicaReads;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;

/**
 * What a page of hits shows that the index does not keep exactly: the author's current
 * nickname and the current view and like counts (the index keeps popularity only as a bucket,
 * so that a like does not rewrite the document). One query for the whole page, on the replica
 * (the primary while the replica is down).
 */
@Component
class HitDetails {

    /** Live values of one post. */
    record Details(long viewCount, long likeCount, String authorNickname) {
    }

    private final ReplicaReads db;

    HitDetails(ReplicaReads db) {
        this.db = db;
    }

    /** @return details per post id; posts the database no longer has are absent */
    Map<Long, Details> of(Collection<Long> postIds) {
        Set<Long> ids = Set.copyOf(postIds);
        if (ids.isEmpty()) {
            return Map.of();
        }
        return db.query(jdbc -> jdbc.sql("""
                        SELECT p.id, COALESCE(c.view_count, 0) AS view_count, COALESCE(c.like_count, 0) AS like_count, u.nickname
                        FROM posts p LEFT JOIN users u ON u.id = p.author_id
                        LEFT JOIN post_counters c ON c.post_id = p.id
                        WHERE p.id IN (:ids)""")
                .param("ids", ids)
                .query((rs, row) -> Map.entry(rs.getLong("id"),
                        new Details(rs.getLong("view_count"), rs.getLong("like_count"), rs.getString("nickname"))))
                .list().stream()
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue)));
    }
}
