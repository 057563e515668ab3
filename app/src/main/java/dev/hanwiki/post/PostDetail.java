package dev.hanwiki.post;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** The detail view of one post; field names are part of the API contract. */
record PostDetail(
        long id,
        String title,
        String content,
        long authorId,
        String authorNickname,
        @Nullable Long categoryId,
        long viewCount,
        long likeCount,
        boolean liked,
        Instant createdAt,
        Instant updatedAt,
        long version) {

    /** The same row as seen by one reader: views not yet flushed, and whether that reader likes it. */
    PostDetail seenBy(long unflushedViews, boolean likedByReader) {
        return new PostDetail(id, title, content, authorId, authorNickname, categoryId, viewCount + unflushedViews,
                likeCount, likedByReader, createdAt, updatedAt, version);
    }

    /** The same row with other counters (as the change stream announced them). */
    PostDetail withCounters(long likes, long views) {
        return new PostDetail(id, title, content, authorId, authorNickname, categoryId, views, likes, liked, createdAt,
                updatedAt, version);
    }
}
