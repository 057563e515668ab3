package dev.hanwiki.search;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** One search result; field names are part of the API contract. */
record SearchHit(
        long id,
        String title,
        String snippet,
        long authorId,
        @Nullable String authorNickname,
        long viewCount,
        long likeCount,
        Instant createdAt) {
}
