package dev.hanwiki.search;

import java.time.Instant;

/** One search result; field names are part of the API contract. */
record SearchHit(
        long id,
        String title,
        String snippet,
        long authorId,
        String authorNickname,
        long viewCount,
        long likeCount,
        Instant createdAt) {
}
