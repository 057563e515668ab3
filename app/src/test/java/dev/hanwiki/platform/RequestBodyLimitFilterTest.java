package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.util.unit.DataSize;

class RequestBodyLimitFilterTest {

    private final RequestBodyLimitFilter filter = new RequestBodyLimitFilter(new WebSettings(DataSize.ofBytes(16)));

    /** A chunked request: no declared length, so only counting the streamed bytes can catch it. */
    private static MockHttpServletRequest chunked(String body) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1.0/posts") {
            @Override
            public long getContentLengthLong() {
                return -1;
            }
        };
        request.setContent(body.getBytes(StandardCharsets.UTF_8));
        return request;
    }

    @Test
    void streamedBodyOverTheLimitFailsWhileReading() {
        assertThatThrownBy(() -> filter.doFilter(chunked("x".repeat(17)), new MockHttpServletResponse(),
                (request, response) -> request.getInputStream().readAllBytes()))
                .isInstanceOf(RequestBodyTooLargeException.class);
    }

    @Test
    void streamedBodyAtTheLimitIsReadWhole() throws Exception {
        byte[][] read = new byte[1][];
        filter.doFilter(chunked("y".repeat(16)), new MockHttpServletResponse(),
                (request, response) -> read[0] = request.getInputStream().readAllBytes());

        assertThat(new String(read[0], StandardCharsets.UTF_8)).isEqualTo("y".repeat(16));
    }
}
