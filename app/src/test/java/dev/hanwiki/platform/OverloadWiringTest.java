package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.hanwiki.WebLayerSlice;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;

/**
 * The limiter is wired into the real filter chain of a node, in front of security and the
 * controllers: with its slots taken, any API call is shed with the problem every client
 * understands, and once they are back it is served again.
 */
@WebMvcTest(
        includeFilters = @ComponentScan.Filter(type = FilterType.REGEX,
                pattern = "dev\\.hanwiki\\.(platform|post|search|auth|category|cache|limits)\\..*"),
        excludeFilters = @ComponentScan.Filter(type = FilterType.REGEX,
                pattern = "dev\\.hanwiki\\.((cdc|autocomplete)\\..*|cache\\.SharedInvalidator|limits\\.WriteLimits)"))
class OverloadWiringTest extends WebLayerSlice {

    @Autowired
    OverloadLimiter limiter;

    @Autowired
    FilterRegistrationBean<OverloadFilter> registration;

    @Autowired
    RequestPressure pressure;

    @Test
    void theFilterRunsAfterTheRequestIdAndMetricsFiltersAndBeforeSecurity() {
        assertThat(registration.getOrder()).isEqualTo(OverloadConfiguration.ORDER)
                .isGreaterThan(Integer.MIN_VALUE + 1) // Boot's HTTP observation filter
                .isLessThan(-100); // Spring Security's filter chain
        assertThat(registration.getUrlPatterns()).containsExactly("/*");
    }

    @Test
    void backgroundWorkAsksTheNodesOwnCpuQueueWhetherRequestsAreShortOfCpu() {
        assertThat(pressure).isNotSameAs(RequestPressure.NONE);
    }

    @Test
    void aSaturatedNodeShedsApiCallsWithOverloadedAndServesThemAgainOnceFree() throws Exception {
        List<OverloadLimiter.Permit> held = new ArrayList<>();
        try {
            Optional<OverloadLimiter.Permit> p;
            while ((p = limiter.acquire(OverloadLimiter.Partition.READ)).isPresent()) {
                held.add(p.get());
            }
            assertThat(held).hasSizeGreaterThanOrEqualTo(8); // hanwiki.overload.min-limit
            mvc.perform(get("/api/v1.0/no-such-thing"))
                    .andExpect(status().isServiceUnavailable())
                    .andExpect(header().string("Retry-After", "1"))
                    .andExpect(header().exists("X-Request-Id"))
                    .andExpect(jsonPath("$.code").value("OVERLOADED"))
                    .andExpect(jsonPath("$.retryAfterSeconds").value(1));
        } finally {
            held.forEach(OverloadLimiter.Permit::success);
        }
        mvc.perform(get("/api/v1.0/no-such-thing")).andExpect(status().isNotFound()).andExpect(jsonPath("$.code").value("NOT_FOUND"));
    }
}
