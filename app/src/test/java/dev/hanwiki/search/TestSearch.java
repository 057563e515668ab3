package dev.hanwiki.search;

import dev.hanwiki.search.analysis.CommonGrams;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/** An index and the search engine over it, with a pinned clock and the 30 stable categories. */
final class TestSearch implements AutoCloseable {

    static final Instant NOW = Instant.parse("2025-11-21T03:00:00Z");
    /** As db/migration/V2__categories.sql seeds them (ids 1-30 are part of the contract). */
    static final Map<Long, String> CATEGORIES = Map.ofEntries(
            Map.entry(1L, "역사"), Map.entry(2L, "과학"), Map.entry(3L, "기술"), Map.entry(4L, "문화"),
            Map.entry(5L, "생활"), Map.entry(6L, "지리"), Map.entry(7L, "한국사"), Map.entry(8L, "세계사"),
            Map.entry(9L, "인물"), Map.entry(10L, "전쟁"), Map.entry(11L, "물리학"), Map.entry(12L, "생물학"),
            Map.entry(13L, "화학"), Map.entry(14L, "천문학"), Map.entry(15L, "프로그래밍"), Map.entry(16L, "인공지능"),
            Map.entry(17L, "하드웨어"), Map.entry(18L, "인터넷"), Map.entry(19L, "음악"), Map.entry(20L, "영화"),
            Map.entry(21L, "문학"), Map.entry(22L, "게임"), Map.entry(23L, "요리"), Map.entry(24L, "건강"),
            Map.entry(25L, "스포츠"), Map.entry(26L, "여행"), Map.entry(27L, "서울"), Map.entry(28L, "부산"),
            Map.entry(29L, "제주"), Map.entry(30L, "세계 지리"));

    final PostIndex index;
    final SearchEngine engine;
    final Categories categories = Categories.of(CATEGORIES);

    private TestSearch(SearchSettings settings, SearchAnalysis analysis) throws IOException {
        this.index = analysis == null ? new PostIndex(settings) : new PostIndex(settings, analysis);
        this.engine = new SearchEngine(index, index.analysis(), categories, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    static TestSearch open(Path dir) throws IOException {
        return new TestSearch(SearchSettings.at(dir), null);
    }

    /** With this list of common terms instead of the generated one ({@link CommonGrams#none()}: no pairs). */
    static TestSearch open(Path dir, CommonGrams commonGrams) throws IOException {
        SearchSettings settings = SearchSettings.at(dir);
        return new TestSearch(settings, new SearchAnalysis(settings, commonGrams));
    }

    TestSearch add(PostDocument... posts) {
        for (PostDocument post : posts) {
            index.writer().upsert(post);
        }
        index.writer().refresh();
        return this;
    }

    SearchEngine.Result search(String q) {
        return search(q, null);
    }

    SearchEngine.Result search(String q, Long categoryId) {
        return engine.search(new SearchRequest(q, categoryId, 0, 10));
    }

    List<Long> ids(String q) {
        return ids(q, null);
    }

    List<Long> ids(String q, Long categoryId) {
        return search(q, categoryId).hits().stream().map(h -> h.post().id()).toList();
    }

    SearchResponse respond(String q) {
        SearchRequest request = new SearchRequest(q, null, 0, 10);
        return SearchService.respond(request, engine.search(request), categories, Map.of());
    }

    @Override
    public void close() throws IOException {
        index.close();
    }
}
