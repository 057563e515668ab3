package dev.hanwiki.post;

import java.time.Instant;

/** The detail view of one post; field names are part of the API contract. */
record PostDetail(
        long id,
        String title,
        String content,
        long authorId,
        String authorNickname,
        Long categoryId,
        long viewCount,
        long likeCount,
        boolean liked,
        Instant createdAt,
        Instant updatedAt,
        long version) {
}
