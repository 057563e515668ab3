package dev.hanwiki.search;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SnippetsTest {

    @Test
    void markupInContentComesBackEscaped() {
        assertThat(Snippets.of("<script>alert('x')</script> & \"q\""))
                .isEqualTo("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
    }

    @Test
    void shortContentIsKeptWholeWithWhitespaceCollapsed() {
        assertThat(Snippets.of("  대한민국의\n\n수도는\t서울이다  ")).isEqualTo("대한민국의 수도는 서울이다");
    }

    @Test
    void longContentIsCutAtOneHundredFiftyCodePointsWithAnEllipsis() {
        String snippet = Snippets.of("가".repeat(400));

        assertThat(snippet).isEqualTo("가".repeat(150) + "…");
    }

    @Test
    void cutNeverSplitsASurrogatePair() {
        String snippet = Snippets.of("😀".repeat(200));

        assertThat(snippet.codePointCount(0, snippet.length())).isEqualTo(151);
        assertThat(snippet).startsWith("😀".repeat(150)).endsWith("…");
    }

    @Test
    void emptyContentGivesEmptySnippet() {
        assertThat(Snippets.of("")).isEmpty();
        assertThat(Snippets.of("   ")).isEmpty();
    }
}
