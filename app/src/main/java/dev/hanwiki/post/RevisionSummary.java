package dev.hanwiki.post;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** One entry of a post's history: who saved which version when, without the content. */
record RevisionSummary(long version, String title, @Nullable Long categoryId, long authorId, String authorNickname, Instant createdAt) {
}
