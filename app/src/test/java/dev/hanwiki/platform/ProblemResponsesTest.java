package dev.hanwiki.platform;

import static dev.hanwiki.ProblemAssertions.isProblem;
import static dev.hanwiki.ProblemAssertions.signedIn;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;

import dev.hanwiki.WebLayerSlice;
import org.junit.jupiter.api.Test;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

/**
 * Every error leaves as application/problem+json with a stable code and without internals.
 * Runs the real controllers, advice and filter; the databases are unreachable on purpose.
 */
@WebMvcTest(
        includeFilters = @ComponentScan.Filter(type = FilterType.REGEX,
                pattern = "dev\\.hanwiki\\.(platform|post|search|auth|category|cache|limits)\\..*"),
        excludeFilters = @ComponentScan.Filter(type = FilterType.REGEX,
                pattern = "dev\\.hanwiki\\.((cdc|autocomplete)\\..*|cache\\.SharedInvalidator|limits\\.WriteLimits)"))
class ProblemResponsesTest extends WebLayerSlice {

    private ResultActions postJson(String body) throws Exception {
        return mvc.perform(post("/api/v1.0/posts").with(signedIn()).contentType(MediaType.APPLICATION_JSON).content(body));
    }

    @Test
    void malformedJsonIsInvalidInput() throws Exception {
        isProblem(postJson("{\"title\": \"t\", \"content\": "), 400, "INVALID_INPUT");
    }

    @Test
    void emptyBodyIsInvalidInput() throws Exception {
        isProblem(postJson(""), 400, "INVALID_INPUT");
    }

    @Test
    void wrongJsonTypeIsInvalidInput() throws Exception {
        isProblem(postJson("{\"title\":\"t\",\"content\":\"c\",\"categoryId\":\"abc\"}"), 400, "INVALID_INPUT");
    }

    @Test
    void blankTitleIsInvalidInputNamingTheField() throws Exception {
        isProblem(postJson("{\"title\":\"   \",\"content\":\"c\"}"), 400, "INVALID_INPUT")
                .andExpect(jsonPath("$.detail").value(containsString("title")));
    }

    @Test
    void missingContentIsInvalidInputNamingTheField() throws Exception {
        isProblem(postJson("{\"title\":\"t\"}"), 400, "INVALID_INPUT")
                .andExpect(jsonPath("$.detail").value(containsString("content")));
    }

    @Test
    void titleLongerThan512CharactersIsInvalidInput() throws Exception {
        isProblem(postJson("{\"title\":\"" + "가".repeat(513) + "\",\"content\":\"c\"}"), 400, "INVALID_INPUT")
                .andExpect(jsonPath("$.detail").value(containsString("title")));
    }

    @Test
    void contentLongerThanOneMebiCharactersIsInvalidInput() throws Exception {
        isProblem(postJson("{\"title\":\"t\",\"content\":\"" + "a".repeat(1_048_577) + "\"}"), 400, "INVALID_INPUT")
                .andExpect(jsonPath("$.detail").value(containsString("content")));
    }

    @Test
    void bodyLargerThanTheLimitIsPayloadTooLarge() throws Exception {
        isProblem(postJson("{\"title\":\"t\",\"content\":\"" + "a".repeat(9 * 1024 * 1024) + "\"}"), 413, "PAYLOAD_TOO_LARGE");
    }

    @Test
    void nonNumericPathIdIsInvalidInput() throws Exception {
        isProblem(mvc.perform(get("/api/v1.0/posts/abc")), 400, "INVALID_INPUT");
    }

    @Test
    void nonNumericQueryParameterIsInvalidInput() throws Exception {
        isProblem(mvc.perform(get("/api/v1.0/posts/search").param("q", "서울").param("page", "abc")), 400, "INVALID_INPUT");
    }

    @Test
    void missingRequiredParameterIsInvalidInput() throws Exception {
        isProblem(mvc.perform(get("/api/v1.0/posts/search")), 400, "INVALID_INPUT")
                .andExpect(jsonPath("$.detail").value(containsString("q")));
    }

    @Test
    void unknownPathIsNotFound() throws Exception {
        isProblem(mvc.perform(get("/api/v1.0/no-such-thing")), 404, "NOT_FOUND");
    }

    @Test
    void wrongMethodIsMethodNotAllowed() throws Exception {
        isProblem(mvc.perform(patch("/api/v1.0/posts/1").with(signedIn()).contentType(MediaType.APPLICATION_JSON).content("{}")),
                405, "METHOD_NOT_ALLOWED");
    }

    @Test
    void nonJsonBodyIsUnsupportedMediaType() throws Exception {
        isProblem(mvc.perform(post("/api/v1.0/posts").with(signedIn()).contentType(MediaType.TEXT_PLAIN).content("title=t")),
                415, "UNSUPPORTED_MEDIA_TYPE");
    }

    @Test
    void unreachableDatabaseIsServiceUnavailableWithoutConnectionDetails() throws Exception {
        isProblem(mvc.perform(get("/api/v1.0/posts/1")), 503, "DATABASE_UNAVAILABLE")
                .andExpect(content().string(allOf(not(containsString("jdbc")), not(containsString("127.0.0.1")),
                        not(containsString("Exception")))));
    }

    @Test
    void aWriteWhileThePrimaryIsUnreachableIsServiceUnavailable() throws Exception {
        isProblem(postJson("{\"title\":\"t\",\"content\":\"c\"}"), 503, "DATABASE_UNAVAILABLE")
                .andExpect(header().exists("Retry-After"));
    }

    @Test
    void aTransactionWhoseConnectionDiedAndCouldNotBeRolledBackIsServiceUnavailable() throws Exception {
        // the server rolls back a transaction whose connection is gone: nothing was written
        isProblem(mvc.perform(get("/test/rollback-lost")), 503, "DATABASE_UNAVAILABLE")
                .andExpect(header().exists("Retry-After"));
    }

    @Test
    void aWriteTheDatabaseRefusedForWantOfSpaceIsServiceUnavailableDatabaseFull() throws Exception {
        // chaos disk-full: InnoDB could not extend the table; the statement was refused, nothing saved
        isProblem(mvc.perform(get("/test/table-full")), 503, "DATABASE_FULL")
                .andExpect(header().string("Retry-After", "30"))
                .andExpect(content().string(not(containsString("INSERT"))));
    }

    @Test
    void anotherUncategorizedDatabaseErrorIsStillAnInternalError() throws Exception {
        isProblem(mvc.perform(get("/test/sql-other")), 500, "INTERNAL_ERROR")
                .andExpect(jsonPath("$.detail").value("An unexpected error occurred."));
    }

    @Test
    void unexpectedErrorIsInternalErrorWithAGenericDetail() throws Exception {
        isProblem(mvc.perform(get("/test/boom")), 500, "INTERNAL_ERROR")
                .andExpect(jsonPath("$.detail").value("An unexpected error occurred."))
                .andExpect(content().string(allOf(not(containsString("SELECT")), not(containsString("Secret")))));
    }
}
