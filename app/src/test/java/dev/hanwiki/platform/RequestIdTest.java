package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.hanwiki.WebLayerSlice;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.test.web.servlet.MvcResult;

/**
 * The request id nginx assigns (X-Request-Id) is the node's too: in the response header, in
 * every problem body (from the advice and from the security filters) and in the logging MDC of
 * the request's log lines (the JSON encoder writes it as "requestId"; unit tests log with a
 * plain pattern, so the MDC of the logged event is what is checked). A missing or unusable
 * header gets an id of the node's own.
 */
@WebMvcTest(
        includeFilters = @ComponentScan.Filter(type = FilterType.REGEX,
                pattern = "dev\\.hanwiki\\.(platform|post|search|auth|category|cache|limits)\\..*"),
        excludeFilters = @ComponentScan.Filter(type = FilterType.REGEX,
                pattern = "dev\\.hanwiki\\.((cdc|autocomplete)\\..*|cache\\.SharedInvalidator|limits\\.WriteLimits)"))
class RequestIdTest extends WebLayerSlice {

    @Test
    void theGivenIdIsInTheHeaderTheProblemAndTheLogLinesOfTheRequest() throws Exception {
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        Logger advice = (Logger) LoggerFactory.getLogger(ProblemAdvice.class);
        logged.start();
        advice.addAppender(logged);
        try {
            mvc.perform(get("/test/boom").header("X-Request-Id", "0f3c9a77d2e14b0c8e9a5b6c7d8e9f10"))
                    .andExpect(status().isInternalServerError())
                    .andExpect(header().string("X-Request-Id", "0f3c9a77d2e14b0c8e9a5b6c7d8e9f10"))
                    .andExpect(jsonPath("$.requestId").value("0f3c9a77d2e14b0c8e9a5b6c7d8e9f10"));
        } finally {
            advice.detachAppender(logged);
        }
        assertThat(logged.list).isNotEmpty().allSatisfy(event ->
                assertThat(event.getMDCPropertyMap()).containsEntry("requestId", "0f3c9a77d2e14b0c8e9a5b6c7d8e9f10"));
        assertThat(org.slf4j.MDC.get("requestId")).as("nothing left on the thread after the request").isNull();
    }

    @Test
    void aProblemFromTheSecurityFiltersCarriesItToo() throws Exception {
        mvc.perform(get("/api/v1.0/auth/me").header("X-Request-Id", "req-7"))
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.requestId").value("req-7"));
    }

    @Test
    void aMissingOrUnusableIdIsReplacedByOneOfTheNodesOwn() throws Exception {
        for (String given : new String[] {null, "two words", "x".repeat(65), "<script>"}) {
            var request = get("/test/boom");
            if (given != null) {
                request.header("X-Request-Id", given);
            }
            MvcResult r = mvc.perform(request).andExpect(status().isInternalServerError()).andReturn();
            String id = r.getResponse().getHeader("X-Request-Id");
            assertThat(id).as("for " + given).matches("[0-9a-f]{32}");
            assertThat(r.getResponse().getContentAsString()).contains("\"requestId\":\"" + id + "\"");
        }
    }
}
