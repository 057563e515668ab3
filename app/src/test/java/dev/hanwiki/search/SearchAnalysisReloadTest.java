package dev.hanwiki.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The user dictionary and synonyms change under a running index, without a restart. */
class SearchAnalysisReloadTest {

    @TempDir
    Path dir;

    private SearchSettings settings(Path analysisDir) {
        return SearchSettings.at(dir.resolve("index")).withAnalysisDir(analysisDir);
    }

    private static void write(Path file, String text, int secondsLater) throws IOException {
        Files.writeString(file, text);
        // A distinct modification time even on file systems with coarse timestamps.
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(secondsLater)));
    }

    @Test
    void editedSynonymsApplyToQueriesWithoutARestart() throws IOException {
        Path files = Files.createDirectories(dir.resolve("analysis"));
        write(files.resolve(SearchAnalysis.SYNONYMS_FILE), "", 1);
        write(files.resolve(SearchAnalysis.DICTIONARY_FILE), "", 1);
        SearchAnalysis analysis = new SearchAnalysis(settings(files));
        try (PostIndex index = new PostIndex(settings(files), analysis)) {
            index.writer().upsert(PostDocuments.post(1, "자전거", "두 바퀴로 가는 탈것", 1));
            index.writer().refresh();
            SearchEngine engine = new SearchEngine(index, analysis, Categories.of(TestSearch.CATEGORIES), java.time.Clock.systemUTC());

            assertThat(engine.search(new SearchRequest("바이크", null, 0, 10)).hits()).isEmpty();

            write(files.resolve(SearchAnalysis.SYNONYMS_FILE), "자전거, 바이크\n", 5);
            assertThat(analysis.reloadIfChanged()).isTrue();

            assertThat(engine.search(new SearchRequest("바이크", null, 0, 10)).hits()).hasSize(1);
        }
    }

    @Test
    void editedUserDictionaryChangesHowNewPagesAndQueriesAreAnalyzed() throws IOException {
        Path files = Files.createDirectories(dir.resolve("analysis"));
        write(files.resolve(SearchAnalysis.DICTIONARY_FILE), "", 1);
        SearchAnalysis analysis = new SearchAnalysis(settings(files));
        assertThat(analysis.queryTokens("뉴진스")).extracting(SearchAnalysis.Token::term).doesNotContain("뉴진스");

        write(files.resolve(SearchAnalysis.DICTIONARY_FILE), "뉴진스\n", 5);
        assertThat(analysis.reloadIfChanged()).isTrue();

        assertThat(analysis.queryTokens("뉴진스")).extracting(SearchAnalysis.Token::term).containsExactly("뉴진스");
        assertThat(analysis.reloadIfChanged()).isFalse(); // unchanged files: nothing to do
    }

    @Test
    void brokenSynonymsFileKeepsThePreviousVersion() throws IOException {
        Path files = Files.createDirectories(dir.resolve("analysis"));
        write(files.resolve(SearchAnalysis.SYNONYMS_FILE), "자전거, 바이크\n", 1);
        SearchAnalysis analysis = new SearchAnalysis(settings(files));
        write(files.resolve(SearchAnalysis.SYNONYMS_FILE), "외톨이\n", 5);

        org.assertj.core.api.Assertions.assertThatThrownBy(analysis::reloadIfChanged)
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 1");
        assertThat(analysis.synonyms().size()).isEqualTo(2);
    }
}
