package dev.hanwiki.platform;

import static dev.hanwiki.ProblemAssertions.isProblem;
import static dev.hanwiki.ProblemAssertions.signedIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.hanwiki.WebLayerSlice;
import jakarta.servlet.RequestDispatcher;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The compatibility contract with existing clients (architecture §4, issue 17 item 3) at the web
 * layer: {@code /api/v1/} is {@code /api/v1.0/} for the security chain, the controllers and the
 * errors; slices say {@code first}; problems from every layer repeat {@code detail} as
 * {@code message}. The databases are unreachable on purpose (what needs rows is in ContractIT).
 */
@WebMvcTest(
        includeFilters = @ComponentScan.Filter(type = FilterType.REGEX,
                pattern = "dev\\.hanwiki\\.(platform|post|search|auth|category|cache|limits)\\..*"),
        excludeFilters = @ComponentScan.Filter(type = FilterType.REGEX,
                pattern = "dev\\.hanwiki\\.((cdc|autocomplete)\\..*|cache\\.SharedInvalidator|limits\\.WriteLimits)"))
class ApiCompatibilityTest extends WebLayerSlice {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private MockHttpServletResponse call(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request).andReturn().getResponse();
    }

    /** The same request under both prefixes: same status, same content type, same body. */
    private void answersAlike(String method, String path, String body, boolean signedIn) throws Exception {
        MockHttpServletResponse canonical = call(build(method, "/api/v1.0" + path, body, signedIn));
        MockHttpServletResponse alias = call(build(method, "/api/v1" + path, body, signedIn));
        String what = method + " /api/v1" + path;
        assertThat(alias.getStatus()).as(what).isEqualTo(canonical.getStatus());
        assertThat(alias.getContentType()).as(what).isEqualTo(canonical.getContentType());
        assertThat(alias.getContentAsString(StandardCharsets.UTF_8)).as(what)
                .isEqualTo(canonical.getContentAsString(StandardCharsets.UTF_8));
    }

    private static MockHttpServletRequestBuilder build(String method, String uri, String body, boolean signedIn) {
        MockHttpServletRequestBuilder request = switch (method) {
            case "GET" -> get(uri);
            case "POST" -> post(uri);
            case "PUT" -> put(uri);
            case "PATCH" -> patch(uri);
            case "DELETE" -> delete(uri);
            default -> throw new IllegalArgumentException(method);
        };
        if (body != null) {
            request.contentType(MediaType.APPLICATION_JSON).content(body);
        }
        // One request id for both calls (as nginx would pass it), so their problem bodies compare.
        request.header("X-Request-Id", "0123456789abcdef0123456789abcdef");
        return signedIn ? request.with(signedIn()) : request;
    }

    @Test
    void theV1AliasAnswersReadsLikeV1_0() throws Exception {
        answersAlike("GET", "/posts/search?q=서울", null, false);
        answersAlike("GET", "/posts/search?q=서울&page=1&size=5", null, false);
        answersAlike("GET", "/auth/check-username?value=a%20b", null, false);
    }

    @Test
    void theV1AliasAnswersErrorsLikeV1_0() throws Exception {
        answersAlike("GET", "/no-such-thing", null, false);         // 404, unknown path
        answersAlike("GET", "/posts/abc", null, false);             // 400, type mismatch
        answersAlike("GET", "/posts/search", null, false);          // 400, missing parameter
        answersAlike("GET", "/posts/1", null, false);               // 503, database unreachable
        answersAlike("PATCH", "/posts/1", "{}", true);              // 405
        answersAlike("POST", "/posts", "{\"title\":", true);        // 400, unreadable body
        answersAlike("POST", "/auth/signup", "{\"username\":1}", false); // 400, permitted without a user
        answersAlike("PUT", "/posts/1", "{\"title\":\"t\",\"content\":\"c\"}", true); // 503: the post is read before the version is asked for
    }

    @Test
    void theSecurityChainGuardsTheAliasLikeV1_0() throws Exception {
        answersAlike("POST", "/posts", "{\"title\":\"t\",\"content\":\"c\"}", false);
        answersAlike("PUT", "/posts/1", "{\"title\":\"t\",\"content\":\"c\"}", false);
        answersAlike("DELETE", "/posts/1", null, false);
        answersAlike("POST", "/posts/1/like", null, false);
        answersAlike("GET", "/auth/me", null, false);
        answersAlike("POST", "/auth/logout", null, false);
        isProblem(mvc.perform(post("/api/v1/posts").contentType(MediaType.APPLICATION_JSON)
                .content("{\"title\":\"t\",\"content\":\"c\"}")), 401, "AUTHENTICATION_REQUIRED");
        isProblem(mvc.perform(get("/api/v1/auth/me")), 401, "AUTHENTICATION_REQUIRED");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v10/posts", "/api/v1x/posts", "/api/v2/posts", "/api/v1.1/posts"})
    void onlyTheV1PrefixIsAnAlias(String path) throws Exception {
        isProblem(mvc.perform(get(path)), 404, "NOT_FOUND");
    }

    @Test
    void aliasRewritingIsExactlyThePrefix() {
        assertThat(ApiVersionAliasFilter.canonical("/api/v1/posts/1")).isEqualTo("/api/v1.0/posts/1");
        assertThat(ApiVersionAliasFilter.canonical("/api/v1")).isEqualTo("/api/v1.0");
        assertThat(ApiVersionAliasFilter.canonical("/api/v1.0/posts")).isEqualTo("/api/v1.0/posts");
        assertThat(ApiVersionAliasFilter.canonical("/api/v10/posts")).isEqualTo("/api/v10/posts");
        assertThat(ApiVersionAliasFilter.canonical(null)).isNull();
    }

    @Test
    void searchSlicesSayWhetherTheyAreTheFirstPage() throws Exception {
        mvc.perform(get("/api/v1/posts/search").param("q", "서울"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.results.first").value(true))
                .andExpect(jsonPath("$.data.results.last").value(true))
                .andExpect(jsonPath("$.data.results.hasNext").value(false));
        mvc.perform(get("/api/v1/posts/search").param("q", "서울").param("page", "2"))
                .andExpect(jsonPath("$.data.results.first").value(false))
                .andExpect(jsonPath("$.data.results.number").value(2));
    }

    @Test
    void sliceMembersAreTheContractsNames() {
        JsonNode first = JSON.valueToTree(ResultSlice.of(List.of("a"), 0, 1, true));
        assertThat(first.propertyNames()).containsExactlyInAnyOrder("content", "number", "size", "first", "hasNext", "last");
        assertThat(first.path("first").asBoolean()).isTrue();
        assertThat(first.path("last").asBoolean()).isFalse();
        JsonNode later = JSON.valueToTree(ResultSlice.of(List.of("a"), 3, 1, false));
        assertThat(later.path("first").asBoolean()).isFalse();
        assertThat(later.path("last").asBoolean()).isTrue();
    }

    @Test
    void searchSaysWhetherTheQueryWasRewritten() throws Exception {
        mvc.perform(get("/api/v1.0/posts/search").param("q", "서울"))
                .andExpect(jsonPath("$.data.rewrittenFrom").value(org.hamcrest.Matchers.nullValue()))
                .andExpect(jsonPath("$.data").value(org.hamcrest.Matchers.hasKey("rewrittenFrom")))
                .andExpect(jsonPath("$.data").value(org.hamcrest.Matchers.hasKey("suggestion")));
    }

    /** Layer by layer (ADR 0018): each writes {@code message}, checked by {@code isProblem}. */
    @Test
    void everyLayerRepeatsDetailAsMessage() throws Exception {
        // Spring MVC through the advice: unknown path, 405, 415, unreadable body, domain exception.
        isProblem(mvc.perform(get("/api/v1.0/no-such-thing")), 404, "NOT_FOUND");
        isProblem(mvc.perform(patch("/api/v1.0/posts/1").with(signedIn()).contentType(MediaType.APPLICATION_JSON).content("{}")),
                405, "METHOD_NOT_ALLOWED");
        isProblem(mvc.perform(post("/api/v1.0/posts").with(signedIn()).contentType(MediaType.TEXT_PLAIN).content("x")),
                415, "UNSUPPORTED_MEDIA_TYPE");
        isProblem(mvc.perform(post("/api/v1.0/posts").with(signedIn()).contentType(MediaType.APPLICATION_JSON).content("{")),
                400, "INVALID_INPUT");
        isProblem(mvc.perform(get("/api/v1.0/posts").param("size", "0")), 400, "INVALID_INPUT");
        isProblem(mvc.perform(get("/api/v1.0/posts/1")), 503, "DATABASE_UNAVAILABLE");
        isProblem(mvc.perform(get("/test/boom")), 500, "INTERNAL_ERROR");
        // Filters: the media type guard, the security entry point, the firewall.
        isProblem(mvc.perform(post("/api/v1.0/posts").with(signedIn()).header("Content-Type", "*/*").content("{}")),
                415, "UNSUPPORTED_MEDIA_TYPE");
        isProblem(mvc.perform(get("/api/v1.0/posts").header("Accept", "not a media type")), 406, "NOT_ACCEPTABLE");
        isProblem(mvc.perform(post("/api/v1.0/posts").contentType(MediaType.APPLICATION_JSON).content("{}")),
                401, "AUTHENTICATION_REQUIRED");
        isProblem(mvc.perform(get("/api/v1.0/posts/1;x=y")), 400, "INVALID_INPUT");
        // The servlet error page, as the container dispatches to it.
        isProblem(mvc.perform(get("/error").requestAttr(RequestDispatcher.ERROR_STATUS_CODE, 404)
                .requestAttr(RequestDispatcher.ERROR_REQUEST_URI, "/api/v1.0/x")), 404, "NOT_FOUND");
    }

    /** What the filters, the error page and Tomcat's error valve all write. */
    @Test
    void problemBodiesOutsideSpringMvcCarryMessage() {
        JsonNode body = JSON.readTree(ProblemBodies.json(403, ProblemCodes.FORBIDDEN, "You may not do this.", "/x"));
        assertThat(body.path("message").asString()).isEqualTo("You may not do this.").isEqualTo(body.path("detail").asString());
        JsonNode generic = JSON.readTree(ProblemBodies.json(502, null, null, null));
        assertThat(generic.path("message").asString()).isEqualTo(ProblemBodies.GENERIC_DETAIL);
        assertThat(JSON.readTree(ProblemBodies.json(404, null, null, null)).path("message").asString())
                .contains("Not Found");
    }

    /** The request is rewritten before anything reads its path, so a problem names the canonical one. */
    @Test
    void aProblemOfTheAliasNamesTheCanonicalPath() throws Exception {
        mvc.perform(get("/api/v1/posts/abc"))
                .andExpect(jsonPath("$.instance").value(containsString("/api/v1.0/posts/abc")));
    }
}
