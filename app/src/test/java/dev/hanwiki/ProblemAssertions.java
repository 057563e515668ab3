package dev.hanwiki;

import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.authentication;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.hanwiki.platform.AuthenticatedUser;
import com.jayway.jsonpath.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.ResultMatcher;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

/** Shared by the web-layer tests: what every error response must look like, and a signed-in caller. */
public final class ProblemAssertions {

    private ProblemAssertions() {
    }

    /**
     * application/problem+json with status, code, title and detail (repeated as {@code message},
     * architecture §4), and nothing of the internals.
     */
    public static ResultActions isProblem(ResultActions result, int status, String code) throws Exception {
        return result.andExpect(status().is(status))
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.status").value(status))
                .andExpect(jsonPath("$.code").value(code))
                .andExpect(jsonPath("$.title").isNotEmpty())
                .andExpect(jsonPath("$.detail").isNotEmpty())
                .andExpect(messageRepeatsDetail())
                .andExpect(jsonPath("$.trace").doesNotExist())
                .andExpect(jsonPath("$.exception").doesNotExist());
    }

    /** {@code message} is present and is exactly {@code detail}. */
    public static ResultMatcher messageRepeatsDetail() {
        return result -> {
            String body = result.getResponse().getContentAsString(StandardCharsets.UTF_8);
            Object detail = JsonPath.read(body, "$.detail");
            Object message = JsonPath.read(body, "$.message");
            if (message == null || !message.equals(detail)) {
                throw new AssertionError("message must repeat detail " + detail + " but was " + message + " in " + body);
            }
        };
    }

    /**
     * Signed in as user 7, without a token: for tests of what happens after authentication (the
     * blacklist is unreachable in web-layer tests, so a real token would fail closed).
     */
    public static RequestPostProcessor signedIn() {
        return authentication(UsernamePasswordAuthenticationToken.authenticated(
                new AuthenticatedUser(7, "test-token", Instant.now().plusSeconds(600)), null,
                List.of(new SimpleGrantedAuthority("ROLE_USER"))));
    }
}
