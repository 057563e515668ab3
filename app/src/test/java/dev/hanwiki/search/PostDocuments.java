package dev.hanwiki.search;

import java.time.Instant;
import java.util.List;

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

    /** Eleven pages in several categories with phrases, synonyms, chosung and English (the query-language tests). */
    static List<PostDocument> queryLanguagePages() {
        return List.of(
                inCategory(1, "경복궁", "경복궁은 조선 왕조의 법궁이다. 서울 종로에 있다.", 7),
                inCategory(2, "서울 여행", "서울에서 경복궁과 남산을 둘러보았다.", 26),
                inCategory(3, "조선 왕조", "조선은 왕조 국가였다. 법궁은 경복궁이었다.", 7),
                inCategory(4, "왕조 조선", "왕조가 바뀌며 조선이 세워졌다.", 8),
                inCategory(5, "휴대폰 고르는 법", "새 휴대폰을 사기 전에 배터리를 본다.", 17),
                inCategory(6, "핸드폰 수리", "액정이 깨진 핸드폰을 고쳤다.", 17),
                inCategory(7, "대한민국", "대한민국은 동아시아의 나라이다.", 30),
                inCategory(8, "대한민국 헌법", "헌법은 대한민국의 최고 법이다.", 7),
                inCategory(9, "김치찌개", "김치찌개 끓이는 법", 23),
                inCategory(10, "Artificial intelligence", "Machine learning and AI research.", 16),
                inCategory(11, "인공지능 윤리", "인공지능이 사회에 미치는 영향", 16));
    }
}
