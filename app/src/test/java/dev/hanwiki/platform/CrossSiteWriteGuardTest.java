package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.Cookie;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** A cross-site form cannot make a cookie-authenticated change (ADR 0088). */
class CrossSiteWriteGuardTest {

    private static MockHttpServletResponse send(MockHttpServletRequest request) throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        new CrossSiteWriteGuard().doFilter(request, response, chain);
        if (chain.getRequest() != null) {
            response.setStatus(299); // passed on
        }
        return response;
    }

    private static MockHttpServletRequest withCookie(String method, String uri) {
        MockHttpServletRequest request = new MockHttpServletRequest(method, uri);
        request.setCookies(new Cookie("token", "a.b.c"));
        return request;
    }

    @Test
    void aBodilessCookieLikeOrLogoutIsRefusedAsCrossSite() throws Exception {
        for (String[] call : new String[][] {{"POST", "/api/v1.0/posts/1/like"}, {"DELETE", "/api/v1.0/posts/1/like"},
            {"POST", "/api/v1.0/auth/logout"}, {"DELETE", "/api/v1.0/posts/1"}}) {
            MockHttpServletResponse response = send(withCookie(call[0], call[1]));
            assertThat(response.getStatus()).as(call[0] + " " + call[1]).isEqualTo(403);
            assertThat(response.getContentType()).isEqualTo("application/problem+json");
            assertThat(response.getContentAsString()).contains("\"code\":\"CROSS_SITE_REQUEST\"");
        }
    }

    @Test
    void formAndTextBodiesAreRefusedToo() throws Exception {
        for (String type : new String[] {"application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"}) {
            MockHttpServletRequest request = withCookie("POST", "/api/v1.0/posts");
            request.setContentType(type);
            assertThat(send(request).getStatus()).as(type).isEqualTo(403);
        }
    }

    @Test
    void jsonOrTheCustomHeaderPasses() throws Exception {
        MockHttpServletRequest json = withCookie("POST", "/api/v1.0/posts");
        json.setContentType("application/json; charset=utf-8");
        assertThat(send(json).getStatus()).isEqualTo(299);
        MockHttpServletRequest problem = withCookie("POST", "/api/v1.0/posts");
        problem.setContentType("application/merge-patch+json");
        assertThat(send(problem).getStatus()).isEqualTo(299);
        MockHttpServletRequest marked = withCookie("POST", "/api/v1.0/posts/1/like");
        marked.addHeader("X-Requested-With", "XMLHttpRequest");
        assertThat(send(marked).getStatus()).isEqualTo(299);
    }

    @Test
    void readsBearerCallsAndCallsWithoutTheCookieAreNotConcerned() throws Exception {
        assertThat(send(withCookie("GET", "/api/v1.0/posts/1")).getStatus()).isEqualTo(299);
        assertThat(send(withCookie("HEAD", "/api/v1.0/posts/1")).getStatus()).isEqualTo(299);
        MockHttpServletRequest bearer = withCookie("POST", "/api/v1.0/posts/1/like");
        bearer.addHeader("Authorization", "Bearer a.b.c");
        assertThat(send(bearer).getStatus()).isEqualTo(299);
        assertThat(send(new MockHttpServletRequest("POST", "/api/v1.0/posts/1/like")).getStatus()).isEqualTo(299);
    }
}
