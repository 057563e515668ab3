package dev.hanwiki.search;

import static dev.hanwiki.search.PostDocuments.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The words the warm-up searches for: from the index itself, held by at least two pages, letters only. */
class SearchWarmupTest {

    @TempDir
    Path dir;

    private PostIndex open() throws Exception {
        return new PostIndex(SearchSettings.at(dir.resolve("index")).withRefreshInterval(Duration.ofMillis(50)));
    }

    @Test
    void wordsComeFromTheIndexAndAtLeastTwoPagesHoldEach() throws Exception {
        try (PostIndex index = open()) {
            assertThat(SearchWarmup.words(index, 10)).as("an empty index: nothing to warm with").isEmpty();
            index.writer().apply(post(1, "서울 여행", "경복궁 근처 맛집 2024년", 1), false);
            index.writer().apply(post(2, "부산 여행", "해운대 근처 맛집 2024년", 1), false);
            index.writer().apply(post(3, "제주", "한라산 등반", 1), false);
            index.writer().refresh();

            List<String> words = SearchWarmup.words(index, 10);
            assertThat(words).isNotEmpty().doesNotHaveDuplicates()
                    .allSatisfy(w -> assertThat(w.codePoints().allMatch(Character::isLetter)).as(w).isTrue());
            IndexSearcher searcher = index.acquire();
            try {
                for (String word : words) {
                    assertThat(searcher.count(new TermQuery(new Term(PostFields.CONTENT, word)))).as(word).isGreaterThanOrEqualTo(2);
                }
            } finally {
                index.release(searcher);
            }
            assertThat(words).contains("근처").doesNotContain("경복궁", "한라산");
            assertThat(SearchWarmup.words(index, 1)).hasSize(1);
        }
    }
}
