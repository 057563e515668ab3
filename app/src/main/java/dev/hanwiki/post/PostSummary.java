package dev.hanwiki.post;

import java.time.Instant;

/** One entry of a post list: the detail without the content. */
record PostSummary(
        long id,
        String title,
        long authorId,
        String authorNickname,
        Long categoryId,
        long viewCount,
        long likeCount,
        Instant createdAt,
        Instant updatedAt) {
}
