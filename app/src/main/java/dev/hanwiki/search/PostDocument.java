package dev.hanwiki.search;

import java.time.Instant;

/**
 * What the index stores per post: the live row as the change stream last described it.
 * {@code version} is the row version; the index never replaces a document with an older one.
 */
public record PostDocument(
        long id,
        String title,
        String content,
        Long categoryId,
        long authorId,
        long viewCount,
        long likeCount,
        Instant createdAt,
        Instant updatedAt,
        long version) {
}
