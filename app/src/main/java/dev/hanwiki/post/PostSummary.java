package dev.hanwiki.post;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** One entry of a post list: the detail without the content. */
record PostSummary(
        long id,
        String title,
        long authorId,
        String authorNickname,
        @Nullable Long categoryId,
        long viewCount,
        long likeCount,
        Instant createdAt,
        Instant updatedAt) {

    /** The same row with other counters (as the change stream announced them). */
    PostSummary withCounters(long likes, long views) {
        return new PostSummary(id, title, authorId, authorNickname, categoryId, views, likes, createdAt, updatedAt);
    }
}
