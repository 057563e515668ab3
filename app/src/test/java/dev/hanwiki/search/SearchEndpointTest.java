package dev.hanwiki.search;

import static org.hamcrest.Matchers.nullValue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.hanwiki.WebLayerSlice;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.http.MediaType;
import org.springframework.test.json.JsonCompareMode;

/**
 * The search endpoint over the real index, service and error advice. The replica is
 * unreachable on purpose: search must still answer, just without author nicknames.
 */
@WebMvcTest(
        includeFilters = @ComponentScan.Filter(type = FilterType.REGEX, pattern = "dev\\.hanwiki\\.(platform|post|search|cache)\\..*"),
        excludeFilters = @ComponentScan.Filter(type = FilterType.REGEX,
                pattern = "dev\\.hanwiki\\.((cdc|auth|autocomplete)\\..*|cache\\.SharedInvalidator)"))
class SearchEndpointTest extends WebLayerSlice {

    @Autowired
    PostIndex index;

    @BeforeEach
    void indexPosts() {
        for (long id = 1; id <= 15; id++) {
            index.writer().upsert(PostDocuments.post(id, "공지 " + id, "공지 본문 " + id, 1));
        }
        index.writer().upsert(PostDocuments.post(200, "안녕", "만날 때 하는 인사", 21));
        index.writer().upsert(new PostDocument(100, "서울 <b>소개</b>", "<script>alert(1)</script> 서울은 대한민국의 수도이다",
                3L, 1, 12, 5, PostDocuments.CREATED, PostDocuments.CREATED, 2));
        index.writer().refresh();
    }

    @Test
    void responseHasTheContractEnvelopeEvenWithoutHits() throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", "존재하지않는검색어"))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(content().json("""
                        {"status":200,"data":{"results":{"content":[],"number":0,"size":10,"first":true,"hasNext":false,"last":true},
                         "suggestion":null,"rewrittenFrom":null,"categoryFacets":{}}}
                        """, JsonCompareMode.STRICT));
    }

    @Test
    void hitCarriesItsFieldsAndAnEscapedSnippet() throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", "서울"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value(200))
                .andExpect(jsonPath("$.data.results.content.length()").value(1))
                .andExpect(jsonPath("$.data.results.content[0].id").value(100))
                .andExpect(jsonPath("$.data.results.content[0].title").value("서울 <b>소개</b>"))
                .andExpect(jsonPath("$.data.results.content[0].snippet")
                        .value("&lt;script&gt;alert(1)&lt;/script&gt; <b>서울</b>은 대한민국의 수도이다"))
                .andExpect(jsonPath("$.data.results.content[0].authorId").value(1))
                .andExpect(jsonPath("$.data.results.content[0].viewCount").value(12))
                .andExpect(jsonPath("$.data.results.content[0].likeCount").value(5))
                .andExpect(jsonPath("$.data.results.content[0].createdAt").value("2025-11-21T03:00:00.123456Z"))
                .andExpect(jsonPath("$.data.suggestion").value(nullValue()));
    }

    @Test
    void replicaOutageCostsTheNicknamesNotTheResults() throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", "서울"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.results.content[0].id").value(100))
                .andExpect(jsonPath("$.data.results.content[0].authorNickname").value(nullValue()));
    }

    @Test
    void pagesReportWhetherAnotherPageExists() throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", "공지").param("size", "10"))
                .andExpect(jsonPath("$.data.results.content.length()").value(10))
                .andExpect(jsonPath("$.data.results.number").value(0))
                .andExpect(jsonPath("$.data.results.first").value(true))
                .andExpect(jsonPath("$.data.results.hasNext").value(true))
                .andExpect(jsonPath("$.data.results.last").value(false));
        mvc.perform(get("/api/v1.0/posts/search").param("q", "공지").param("size", "10").param("page", "1"))
                .andExpect(jsonPath("$.data.results.content.length()").value(5))
                .andExpect(jsonPath("$.data.results.number").value(1))
                .andExpect(jsonPath("$.data.results.size").value(10))
                .andExpect(jsonPath("$.data.results.first").value(false))
                .andExpect(jsonPath("$.data.results.hasNext").value(false))
                .andExpect(jsonPath("$.data.results.last").value(true));
    }

    @Test
    void categoryParameterFiltersResults() throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", "서울").param("categoryId", "3"))
                .andExpect(jsonPath("$.data.results.content.length()").value(1));
        mvc.perform(get("/api/v1.0/posts/search").param("q", "서울").param("categoryId", "4"))
                .andExpect(jsonPath("$.data.results.content.length()").value(0));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"서울|0|0", "서울|0|101", "서울|-1|10", "서울|100|10", "서울|0|1001", "'  '|0|10", "''|0|10"})
    void invalidSearchParametersAreInvalidInput(String q, String page, String size) throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", q).param("page", page).param("size", size))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.code").value("INVALID_INPUT"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"", "((((", "-", "*", "~", "\\", "😀", "<script>", "a~10000", "(\"서울"})
    void hostileQueryTextIsAnsweredNotFailed(String q) throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", q))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value(200))
                .andExpect(jsonPath("$.data.results.content").isArray());
    }

    @Test
    void punctuationUpToTheLengthCapIsAnsweredWithNoResults() throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", ".,;:!?".repeat(85)))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.results.content.length()").value(0));
    }

    @Test
    void tenKilobytesOfTextAreAClearBadRequest() throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", ".,;:!?".repeat(1700)))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.code").value("INVALID_INPUT"))
                .andExpect(jsonPath("$.detail").value("q must be at most 512 characters."));
    }

    @Test
    void moreWordsThanTheTermCapAreAClearBadRequest() throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", "서울 ".repeat(33)))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.code").value("INVALID_INPUT"))
                .andExpect(jsonPath("$.detail").value("q must have at most 32 words (it has 33)."));
    }

    @Test
    void queryTextBeyondSixteenKilobytesIsInvalidInput() throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", "가".repeat(SearchRequest.MAX_QUERY_LENGTH + 1)))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.code").value("INVALID_INPUT"));
    }

    @Test
    void pageBeyondTheResultWindowIsABadRequestThatSaysWhy() throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", "공지").param("page", "100").param("size", "10"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.code").value("INVALID_INPUT"))
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("1000")));
    }

    @Test
    void facetsAreKeyedByCategoryIdWhileTheDatabaseIsDownAndSnippetsHighlight() throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", "서울"))
                .andExpect(jsonPath("$.data.categoryFacets['3']").value(1))
                .andExpect(jsonPath("$.data.results.content[0].snippet")
                        .value("&lt;script&gt;alert(1)&lt;/script&gt; <b>서울</b>은 대한민국의 수도이다"));
    }

    @Test
    void exactSearchesTheTextAsTypedWhileTheDefaultRescuesIt() throws Exception {
        // The rescued answer first: the exact call must not be served from its cache entry.
        mvc.perform(get("/api/v1.0/posts/search").param("q", "dkssud"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.rewrittenFrom").value("dkssud"))
                .andExpect(jsonPath("$.data.suggestion").value("안녕"))
                .andExpect(jsonPath("$.data.results.content[0].id").value(200));
        mvc.perform(get("/api/v1.0/posts/search").param("q", "dkssud").param("exact", "true"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.rewrittenFrom").value(nullValue()))
                .andExpect(jsonPath("$.data.results.content.length()").value(0));
        mvc.perform(get("/api/v1.0/posts/search").param("q", "dkssud").param("exact", "false"))
                .andExpect(jsonPath("$.data.rewrittenFrom").value("dkssud"));
    }

    @Test
    void exactThatIsNotABooleanIsInvalidInput() throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", "서울").param("exact", "maybe"))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.code").value("INVALID_INPUT"))
                .andExpect(jsonPath("$.detail").value("exact must be true or false."));
    }

    /**
     * Found by make fuzz: a repeated parameter's detail was Spring's "Failed to convert 'size'
     * with value: '[Ljava.lang.String;@3c185557'", a Java array's identity. Now our words only.
     */
    @Test
    void parametersThatDoNotConvertAreNamedWithoutInternals() throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", "서울").param("size", "null", "null"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.code").value("INVALID_INPUT"))
                .andExpect(jsonPath("$.detail").value("size must be given once."))
                .andExpect(jsonPath("$.message").value("size must be given once."));
        mvc.perform(get("/api/v1.0/posts/search").param("q", "서울").param("categoryId", "1e3"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value("categoryId must be a whole number."));
        mvc.perform(get("/api/v1.0/posts/search").param("q", "서울").param("exact", "null", "null"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value("exact must be given once."));
    }
}
