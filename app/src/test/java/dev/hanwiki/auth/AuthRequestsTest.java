package dev.hanwiki.auth;

import static dev.hanwiki.ProblemAssertions.isProblem;
import static dev.hanwiki.ProblemAssertions.signedIn;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.hanwiki.UnreachableInfrastructure;
import dev.hanwiki.WebLayerSlice;
import jakarta.servlet.http.Cookie;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

/**
 * How the security chain treats tokens, and the account rules, over the real beans. The token
 * blacklist and the databases are unreachable on purpose: genuine tokens must then fail closed
 * on calls that need a user, while public reads keep being answered.
 */
@WebMvcTest(
        includeFilters = @ComponentScan.Filter(type = FilterType.REGEX,
                pattern = "dev\\.hanwiki\\.(platform|post|search|auth|category|cache|limits)\\..*"),
        excludeFilters = @ComponentScan.Filter(type = FilterType.REGEX,
                pattern = "dev\\.hanwiki\\.((cdc|autocomplete)\\..*|cache\\.SharedInvalidator|limits\\.WriteLimits)"))
class AuthRequestsTest extends WebLayerSlice {

    @Autowired
    JwtTokens tokens;

    private static final String SECRET = UnreachableInfrastructure.TEST_JWT_SECRET;

    private ResultActions createPost(String authorization) throws Exception {
        var request = post("/api/v1.0/posts").contentType(MediaType.APPLICATION_JSON).content("{\"title\":\"t\",\"content\":\"c\"}");
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return mvc.perform(request);
    }

    @Test
    void aWriteWithoutATokenIsAuthenticationRequired() throws Exception {
        isProblem(createPost(null), 401, "AUTHENTICATION_REQUIRED")
                .andExpect(header().string("WWW-Authenticate", "Bearer"));
    }

    @Test
    void aWriteWithAForgedTokenIsInvalidToken() throws Exception {
        String forged = TestTokens.sign("b3RoZXItc2VjcmV0LW9mLWF0LWxlYXN0LTMyLWJ5dGVzLWxvbmc=",
                TestTokens.claims(1, Instant.now(), Instant.now().plusSeconds(600)).build());
        isProblem(createPost("Bearer " + forged), 401, "INVALID_TOKEN")
                .andExpect(header().string("WWW-Authenticate", containsString("invalid_token")));
    }

    @Test
    void aWriteWithAnExpiredTokenIsTokenExpired() throws Exception {
        String expired = TestTokens.sign(SECRET, TestTokens.claims(1, Instant.now().minusSeconds(3600),
                Instant.now().minusSeconds(1)).build());
        isProblem(createPost("Bearer " + expired), 401, "TOKEN_EXPIRED");
    }

    @Test
    void anUnsignedTokenIsInvalidToken() throws Exception {
        String unsigned = TestTokens.unsigned(TestTokens.claims(1, Instant.now(), Instant.now().plusSeconds(600)).build());
        isProblem(createPost("Bearer " + unsigned), 401, "INVALID_TOKEN");
    }

    @Test
    void aGenuineTokenFailsClosedWhileTheBlacklistIsUnreachable() throws Exception {
        String token = tokens.issue(1).value();
        isProblem(createPost("Bearer " + token), 503, "AUTH_UNAVAILABLE")
                .andExpect(header().exists("Retry-After"));
        isProblem(mvc.perform(get("/api/v1.0/auth/me").cookie(new Cookie("token", token))),
                503, "AUTH_UNAVAILABLE");
        isProblem(mvc.perform(post("/api/v1.0/auth/logout").cookie(new Cookie("token", token)).header("X-Requested-With", "test")),
                503, "AUTH_UNAVAILABLE");
    }

    @Test
    void aPublicReadWithATokenThatCannotBeCheckedIsAnsweredAnonymously() throws Exception {
        String token = tokens.issue(1).value();
        mvc.perform(get("/api/v1.0/posts/search").param("q", "서울").cookie(new Cookie("token", token)))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value(200));
    }

    @Test
    void theBearerHeaderWinsOverTheCookie() throws Exception {
        String genuine = tokens.issue(1).value();
        var request = post("/api/v1.0/posts").contentType(MediaType.APPLICATION_JSON).content("{}")
                .header("Authorization", "Bearer not-a-token").cookie(new Cookie("token", genuine));
        isProblem(mvc.perform(request), 401, "INVALID_TOKEN");
    }

    @Test
    void meWithoutATokenIsAuthenticationRequired() throws Exception {
        isProblem(mvc.perform(get("/api/v1.0/auth/me")), 401, "AUTHENTICATION_REQUIRED");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "short username       | {\"username\":\"abc\",\"nickname\":\"앨리스\",\"password\":\"Passw0rd!\"}        | username",
            "symbol in username   | {\"username\":\"alice_01\",\"nickname\":\"앨리스\",\"password\":\"Passw0rd!\"}   | username",
            "missing nickname     | {\"username\":\"alice01\",\"password\":\"Passw0rd!\"}                         | nickname",
            "long nickname        | {\"username\":\"alice01\",\"nickname\":\"가나다라마바사아자차카타파\",\"password\":\"Passw0rd!\"} | nickname",
            "short password       | {\"username\":\"alice01\",\"nickname\":\"앨리스\",\"password\":\"Pa0!\"}        | password",
            "one character class  | {\"username\":\"alice01\",\"nickname\":\"앨리스\",\"password\":\"passwordonly\"} | password",
            "wrong types          | {\"username\":1,\"nickname\":[],\"password\":{}}                             | request body"})
    void signUpRulesAreInvalidInputNamingTheField(String name, String body, String field) throws Exception {
        isProblem(mvc.perform(post("/api/v1.0/auth/signup").contentType(MediaType.APPLICATION_JSON).content(body)),
                400, "INVALID_INPUT").andExpect(jsonPath("$.detail").value(containsString(field)));
    }

    @Test
    void loginWithBlankFieldsIsInvalidInput() throws Exception {
        isProblem(mvc.perform(post("/api/v1.0/auth/login").contentType(MediaType.APPLICATION_JSON)
                .content("{\"username\":\"\",\"password\":\"\"}")), 400, "INVALID_INPUT");
    }

    @Test
    void checkingAMalformedUsernameIsInvalidInput() throws Exception {
        isProblem(mvc.perform(get("/api/v1.0/auth/check-username").param("value", "a b")), 400, "INVALID_INPUT");
        isProblem(mvc.perform(get("/api/v1.0/auth/check-nickname")), 400, "INVALID_INPUT");
    }

    /**
     * Authorization before preconditions: whether the caller may edit (403) needs the post's
     * author, so a missing version (428) is not refused before the post was read. Here the
     * database is unreachable, so reading it is what fails; PostLifecycleIT sees 403 and 428.
     */
    @Test
    void anEditWithoutAVersionIsJudgedOnThePostFirst() throws Exception {
        isProblem(mvc.perform(put("/api/v1.0/posts/1").with(signedIn())
                .contentType(MediaType.APPLICATION_JSON).content("{\"title\":\"t\",\"content\":\"c\"}")), 503, "DATABASE_UNAVAILABLE");
    }

    @Test
    void anAnonymousEditWithoutAVersionIsAuthenticationRequired() throws Exception {
        isProblem(mvc.perform(put("/api/v1.0/posts/1")
                .contentType(MediaType.APPLICATION_JSON).content("{\"title\":\"t\",\"content\":\"c\"}")), 401, "AUTHENTICATION_REQUIRED");
    }

    @Test
    void anUnusableIfMatchIsInvalidInput() throws Exception {
        isProblem(mvc.perform(put("/api/v1.0/posts/1").with(signedIn())
                .header("If-Match", "*").contentType(MediaType.APPLICATION_JSON)
                .content("{\"title\":\"t\",\"content\":\"c\"}")), 400, "INVALID_INPUT");
    }

    @Test
    void aUrlTheFirewallRefusesIsInvalidInput() throws Exception {
        isProblem(mvc.perform(get("/api/v1.0/posts/1;jsessionid=abc")), 400, "INVALID_INPUT");
    }

    @ParameterizedTest
    @CsvSource({"/api/v1.0/posts,page,-1", "/api/v1.0/posts,size,0", "/api/v1.0/posts,size,101", "/api/v1.0/posts,page,10000",
            "/api/v1.0/posts,categoryId,abc", "/api/v1.0/posts/1/revisions,size,1000", "/api/v1.0/posts/1/revisions,page,x"})
    void badPagingIsInvalidInput(String path, String parameter, String value) throws Exception {
        isProblem(mvc.perform(get(path).param(parameter, value)), 400, "INVALID_INPUT");
    }

    @Test
    void aDiffNeedsBothVersions() throws Exception {
        isProblem(mvc.perform(get("/api/v1.0/posts/1/diff").param("from", "1")), 400, "INVALID_INPUT");
    }
}
