package dev.hanwiki.post;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** One saved version of a post, as it was stored. */
record Revision(
        long postId,
        long version,
        String title,
        String content,
        @Nullable Long categoryId,
        long authorId,
        String authorNickname,
        Instant createdAt) {
}
