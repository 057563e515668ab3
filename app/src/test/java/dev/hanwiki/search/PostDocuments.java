package dev.hanwiki.search;

import java.time.Instant;

/** Builds index documents for tests. */
final class PostDocuments {

    static final Instant CREATED = Instant.parse("2025-11-21T03:00:00.123456Z");

    private PostDocuments() {
    }

    static PostDocument post(long id, String title, String content, long version) {
        return new PostDocument(id, title, content, null, 1L, 0L, 0L, CREATED, CREATED.plusSeconds(version), version);
    }

    static PostDocument inCategory(long id, String title, String content, long categoryId) {
        return new PostDocument(id, title, content, categoryId, 1L, 0L, 0L, CREATED, CREATED, 1L);
    }

    static PostDocument popular(long id, String title, String content, long categoryId, long views, long likes, Instant created) {
        return new PostDocument(id, title, content, categoryId, 1L, views, likes, created, created, 1L);
    }
}
