package dev.hanwiki.search;

import static dev.hanwiki.search.PostDocuments.inCategory;
import static dev.hanwiki.search.PostDocuments.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.lucene.search.Query;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End-to-end through the Nori analyzer, the query parser and the index. */
class KoreanSearchTest {

    @TempDir
    Path dir;

    private PostIndex index;

    @BeforeEach
    void open() throws IOException {
        index = new PostIndex(new SearchSettings(dir, Duration.ofMillis(100)));
        index.upsert(post(1, "수도", "대한민국의 수도는 서울이다", 1));
        index.upsert(post(2, "부산 여행", "부산은 바다가 아름다운 항구 도시입니다", 1));
        index.upsert(post(3, "Spring Boot 안내", "Spring Boot로 서버를 만든다", 1));
        index.upsert(inCategory(4, "서울 맛집", "서울의 식당 목록", 7));
        index.refresh();
    }

    @AfterEach
    void close() throws IOException {
        index.close();
    }

    private List<Long> ids(String text) throws IOException {
        return ids(text, null);
    }

    private List<Long> ids(String text, Long categoryId) throws IOException {
        Query query = PostQueries.inCategory(PostQueries.parse(index.analyzer(), text).orElseThrow(), categoryId);
        return index.search(query, 0, 10).hits().stream().map(PostDocument::id).toList();
    }

    @Test
    void particleAttachedNounIsFoundByTheBareNoun() throws IOException {
        assertThat(ids("서울")).containsExactlyInAnyOrder(1L, 4L);
    }

    @Test
    void compoundProperNounIsFoundByItself() throws IOException {
        assertThat(ids("대한민국")).containsExactly(1L);
    }

    @Test
    void inflectedQueryMatchesTheSameStem() throws IOException {
        assertThat(ids("대한민국의 수도")).containsExactly(1L);
    }

    @Test
    void allTermsMustMatchByDefault() throws IOException {
        assertThat(ids("서울 부산")).isEmpty();
    }

    @Test
    void englishTermsAreCaseInsensitive() throws IOException {
        assertThat(ids("spring")).containsExactly(3L);
    }

    @Test
    void titleMatchOutranksBodyMatch() throws IOException {
        // Post 4 has 서울 in its title, post 1 only in its body.
        assertThat(ids("서울")).first().isEqualTo(4L);
    }

    @Test
    void categoryFilterKeepsOnlyThatCategory() throws IOException {
        assertThat(ids("서울", 7L)).containsExactly(4L);
        assertThat(ids("서울", 8L)).isEmpty();
    }
}
