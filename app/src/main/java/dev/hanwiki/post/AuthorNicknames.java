package dev.hanwiki.post;

import dev.hanwiki.platform.ReplicaReads;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;

/**
 * Resolves author ids to nicknames from the replica (primary while it is down), one IN query per call. Used by search so
 * the index does not need rewriting when a nickname changes.
 */
@Component
public class AuthorNicknames {

    private final ReplicaReads replica;

    AuthorNicknames(ReplicaReads replica) {
        this.replica = replica;
    }

    /** @return nickname per author id; ids without a user are absent from the map */
    public Map<Long, String> of(Collection<Long> authorIds) {
        Set<Long> ids = Set.copyOf(authorIds);
        if (ids.isEmpty()) {
            return Map.of();
        }
        return replica.query(db -> db.sql("SELECT id, nickname FROM users WHERE id IN (:ids)")
                .param("ids", ids)
                .query((rs, row) -> Map.entry(rs.getLong("id"), rs.getString("nickname")))
                .list()
                .stream()
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue)));
    }
}
