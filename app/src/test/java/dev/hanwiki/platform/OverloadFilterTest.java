package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** What a client sees of the limiter: a fast 503 problem with Retry-After, or the real answer. */
class OverloadFilterTest {

    private final OverloadLimiter limiter = new OverloadLimiter(
            OverloadLimiterTest.settings(2, 2, 2, 0.5, 0.5, 0, 0, Duration.ZERO), new SimpleMeterRegistry());
    private final OverloadFilter filter = new OverloadFilter(limiter, 1);

    private static MockHttpServletRequest request(String method, String uri) {
        MockHttpServletRequest request = new MockHttpServletRequest(method, uri);
        request.setRequestURI(uri);
        return request;
    }

    @Test
    void aRequestPastTheLimitIsAFast503ProblemWithRetryAfterThatNeverReachesTheApplication() throws Exception {
        limiter.acquire(OverloadLimiter.Partition.READ).orElseThrow();
        limiter.acquire(OverloadLimiter.Partition.READ).orElseThrow();
        AtomicInteger reached = new AtomicInteger();
        filter.doFilter(request("GET", "/api/v1.0/posts"), new MockHttpServletResponse(), new MockFilterChain()); // warm
        MockHttpServletResponse response = new MockHttpServletResponse();
        long start = System.nanoTime();
        filter.doFilter(request("GET", "/api/v1.0/posts/search"), response,
                new MockFilterChain(new jakarta.servlet.http.HttpServlet() { }, (req, res, chain) -> reached.incrementAndGet()));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(50));
        assertThat(reached).hasValue(0);
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeader("Retry-After")).isEqualTo("1");
        assertThat(response.getContentType()).startsWith("application/problem+json");
        JsonNode body = JsonMapper.builder().build().readTree(response.getContentAsByteArray());
        assertThat(body.path("code").asString()).isEqualTo("OVERLOADED");
        assertThat(body.path("status").asInt()).isEqualTo(503);
        assertThat(body.path("retryAfterSeconds").asInt()).isEqualTo(1);
        assertThat(body.path("message").asString()).isEqualTo(body.path("detail").asString()).isNotBlank();
        assertThat(body.path("instance").asString()).isEqualTo("/api/v1.0/posts/search");
    }

    @Test
    void anAdmittedRequestIsServedAndGivesItsSlotBack() throws Exception {
        for (int i = 0; i < 5; i++) {
            MockHttpServletResponse response = new MockHttpServletResponse();
            filter.doFilter(request("POST", "/api/v1.0/posts"), response, new MockFilterChain());
            assertThat(response.getStatus()).isEqualTo(200);
        }
        assertThat(limiter.inflight()).isZero();
    }

    @Test
    void aFailingRequestGivesItsSlotBackToo() {
        for (int i = 0; i < 5; i++) {
            MockFilterChain failing = new MockFilterChain(new jakarta.servlet.http.HttpServlet() { }, (req, res, chain) -> {
                throw new IllegalStateException("boom");
            });
            try {
                filter.doFilter(request("GET", "/api/v1.0/posts/1"), new MockHttpServletResponse(), failing);
            } catch (Exception expected) {
                assertThat(expected).hasMessageContaining("boom");
            }
        }
        assertThat(limiter.inflight()).isZero();
    }

    /**
     * A 503 from a pool that timed out is a sign of overload and shrinks the limit; a write the
     * primary held (ADR 0096) says nothing about this node's load and is released unsampled.
     */
    @Test
    void aWriteThePrimaryHeldDoesNotShrinkTheLimitWhereAnOverloaded503Does() throws Exception {
        assertThat(limitAfterAWindowWithOne503(false)).as("an overload 503").isLessThan(10);
        assertThat(limitAfterAWindowWithOne503(true)).as("a write the primary held").isEqualTo(10);
    }

    private static int limitAfterAWindowWithOne503(boolean thePrimaryHeldIt) throws Exception {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        OverloadLimiter limiter = new OverloadLimiter(OverloadLimiterTest.settings(1, 10, 10, 0.7, 0.25, 0.05, 0, Duration.ZERO),
                new SimpleMeterRegistry(), now::get, OverloadLimiterTest.CPU_QUEUED);
        OverloadFilter filter = new OverloadFilter(limiter, 1);
        for (int window = 0; window < 4; window++) {
            // Per window: one 503, then ten fast answers; then past the window (100 ms).
            for (int i = 0; i < 11; i++) {
                boolean refused = i == 0;
                MockFilterChain chain = new MockFilterChain(new jakarta.servlet.http.HttpServlet() { }, (req, res, next) -> {
                    now.addAndGet(Duration.ofMillis(2).toNanos());
                    if (refused) {
                        ((jakarta.servlet.http.HttpServletResponse) res).setStatus(503);
                        if (thePrimaryHeldIt) {
                            req.setAttribute(OverloadFilter.NOT_A_LOAD_SIGNAL, Boolean.TRUE);
                        }
                    }
                });
                filter.doFilter(request("POST", "/api/v1.0/posts"), new MockHttpServletResponse(), chain);
            }
            now.addAndGet(Duration.ofMillis(120).toNanos());
        }
        return limiter.limit();
    }

    @Test
    void theActuatorIsNeverLimited() throws Exception {
        limiter.acquire(OverloadLimiter.Partition.READ).orElseThrow();
        limiter.acquire(OverloadLimiter.Partition.READ).orElseThrow();
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(request("GET", "/actuator/health"), response, new MockFilterChain());
        assertThat(response.getStatus()).isEqualTo(200);
    }

    @Test
    void requestsArePartitionedByMethodAndOperatorPath() {
        assertThat(OverloadFilter.partitionOf(request("GET", "/api/v1.0/posts"))).isEqualTo(OverloadLimiter.Partition.READ);
        assertThat(OverloadFilter.partitionOf(request("HEAD", "/api/v1.0/posts/1"))).isEqualTo(OverloadLimiter.Partition.READ);
        assertThat(OverloadFilter.partitionOf(request("POST", "/api/v1.0/posts"))).isEqualTo(OverloadLimiter.Partition.WRITE);
        assertThat(OverloadFilter.partitionOf(request("POST", "/api/v1.0/auth/login"))).isEqualTo(OverloadLimiter.Partition.WRITE);
        assertThat(OverloadFilter.partitionOf(request("DELETE", "/api/v1.0/posts/1/like"))).isEqualTo(OverloadLimiter.Partition.WRITE);
        assertThat(OverloadFilter.partitionOf(request("POST", "/internal/autocomplete/rebuild"))).isEqualTo(OverloadLimiter.Partition.INTERNAL);
        assertThat(OverloadFilter.partitionOf(request("GET", "/internalx"))).isEqualTo(OverloadLimiter.Partition.READ);
    }
}
