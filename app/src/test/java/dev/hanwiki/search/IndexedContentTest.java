package dev.hanwiki.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The content digests convergence checks compare with the primary's rows (ADR 0076). */
class IndexedContentTest {

    @TempDir
    Path dir;

    private PostIndex index;

    @BeforeEach
    void open() throws IOException {
        index = new PostIndex(SearchSettings.at(dir.resolve("index")).withRefreshInterval(Duration.ofMillis(50)));
    }

    @AfterEach
    void close() throws IOException {
        index.close();
    }

    private static PostDocument post(long id, String title, String content, Long category, long version) {
        return new PostDocument(id, title, content, category, 1, 0, 0, PostDocuments.CREATED, PostDocuments.CREATED, version);
    }

    @Test
    void theIndexedDigestIsTheDigestOfTheRowsTitleContentAndCategory() {
        index.writer().upsert(post(1, "경복궁", "궁궐을 걸었다", 26L, 1));
        index.writer().upsert(post(2, "무제", "분류 없음", null, 1));
        index.writer().refresh();

        assertThat(IndexedContent.of(index, List.of(1L, 2L, 3L))).containsOnly(
                entry(1L, IndexedContent.digest("경복궁", "궁궐을 걸었다", 26L)),
                entry(2L, IndexedContent.digest("무제", "분류 없음", null)));
    }

    @Test
    void aDifferentTextOrCategoryWithTheSameVersionGivesADifferentDigest() {
        String digest = IndexedContent.digest("제목", "본문", 1L);
        assertThat(IndexedContent.digest("제목", "본문 ", 1L)).isNotEqualTo(digest);
        assertThat(IndexedContent.digest("제목", "본문", 2L)).isNotEqualTo(digest);
        assertThat(IndexedContent.digest("제목", "본문", null)).isNotEqualTo(digest);
        assertThat(digest).hasSize(64).matches("[0-9a-f]+");
    }

    @Test
    void anEditIsSeenInTheDigest() {
        index.writer().upsert(post(1, "제목", "처음", null, 1));
        index.writer().refresh();
        String before = IndexedContent.of(index, List.of(1L)).get(1L);
        index.writer().upsert(post(1, "제목", "고침", null, 2));
        index.writer().refresh();

        assertThat(IndexedContent.of(index, List.of(1L))).containsEntry(1L, IndexedContent.digest("제목", "고침", null));
        assertThat(before).isEqualTo(IndexedContent.digest("제목", "처음", null));
    }
}
