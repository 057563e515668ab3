package dev.hanwiki.search;

import static dev.hanwiki.search.PostDocuments.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnippetsTest {

    @TempDir
    static Path dir;

    private static TestSearch search;

    private static final String LONG = "서론 ".repeat(120) + "여기서 경복궁의 역사를 다룬다. 경복궁은 1395년에 세워졌다. " + "결론 ".repeat(120);

    @BeforeAll
    static void open() throws IOException {
        search = TestSearch.open(dir).add(
                post(1, "악성 페이지", "<script>alert('x')</script> 서울은 <b>수도</b> & \"따옴표\" 입니다", 1),
                post(2, "긴 글", LONG, 1),
                post(3, "삼성전자", "삼성전자의 반도체", 1),
                post(4, "조선 왕조 실록", "태조부터 철종까지의 기록. 조선 왕조 실록은 유네스코 기록유산이다.", 1),
                post(5, "제목에만 있는 말 무지개", "본문은 다른 이야기로 시작한다.\n\n둘째 문단.", 1));
    }

    @AfterAll
    static void close() throws IOException {
        search.close();
    }

    private static String snippet(String q) {
        return search.respond(q).results().content().getFirst().snippet();
    }

    @Test
    void pageTextIsEscapedAndOnlyOurBoldTagsAreMarkup() {
        String snippet = snippet("서울");

        assertThat(snippet).contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
                .contains("<b>서울</b>")
                .contains("&lt;b&gt;수도&lt;/b&gt;")
                .contains("&amp; &quot;따옴표&quot;")
                .doesNotContain("<script");
        assertThat(snippet.replace("<b>서울</b>", "")).doesNotContain("<").doesNotContain(">");
    }

    @Test
    void markupInUnmatchedContentComesBackEscaped() {
        assertThat(Snippets.plain("<script>alert('x')</script> & \"q\""))
                .isEqualTo("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
    }

    @Test
    void snippetIsAWindowAroundTheMatchesWithEllipses() {
        String snippet = snippet("경복궁");

        assertThat(snippet).startsWith("…").endsWith("…").contains("<b>경복궁</b>의 역사").contains("<b>경복궁</b>은 1395년");
        String text = snippet.replace("<b>", "").replace("</b>", "");
        assertThat(text.length()).isBetween(100, Snippets.MAX_CHARS + 2);
    }

    @Test
    void partOfACompoundIsHighlightedInsideIt() {
        assertThat(snippet("삼성")).isEqualTo("<b>삼성</b>전자의 반도체");
    }

    @Test
    void phraseIsHighlightedAsOneSpan() {
        assertThat(snippet("\"조선 왕조 실록\"")).contains("<b>조선 왕조 실록</b>");
    }

    @Test
    void titleOnlyMatchShowsTheOpeningWithWhitespaceCollapsed() {
        assertThat(snippet("무지개")).isEqualTo("본문은 다른 이야기로 시작한다. 둘째 문단.");
    }

    @Test
    void longContentWithoutMatchIsCutAtOneHundredFiftyCodePointsWithAnEllipsis() {
        assertThat(Snippets.plain("가".repeat(400))).isEqualTo("가".repeat(150) + "…");
    }

    @Test
    void cutNeverSplitsASurrogatePair() {
        String snippet = Snippets.plain("😀".repeat(200));

        assertThat(snippet.codePointCount(0, snippet.length())).isEqualTo(151);
        assertThat(snippet).startsWith("😀".repeat(150)).endsWith("…");
    }

    @Test
    void emptyContentGivesEmptySnippet() {
        assertThat(Snippets.plain("")).isEmpty();
        assertThat(Snippets.plain("   ")).isEmpty();
    }
}
