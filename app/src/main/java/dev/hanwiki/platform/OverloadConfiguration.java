package dev.hanwiki.platform;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Graceful overload (ADR 0093): the limiter and its filter, right after the request id
 * ({@link RequestIdFilter}, first) and Boot's HTTP metrics filter (second), before security.
 * Start-up fails when the pools or the server threads could become the queue ({@link OverloadSizing}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "hanwiki.overload.enabled", havingValue = "true", matchIfMissing = true)
class OverloadConfiguration {

    /** After RequestIdFilter (HIGHEST_PRECEDENCE) and the observation filter (HIGHEST_PRECEDENCE + 1). */
    static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 2;

    @Bean
    CpuQueueSampler cpuQueueSampler(OverloadSettings settings) {
        return new CpuQueueSampler(CpuQueue.ofThisProcess(), settings.window());
    }

    /** Background work pauses while this is short ({@link RequestPressure}). */
    @Bean
    RequestPressure requestPressure(CpuQueueSampler cpuQueue) {
        return new RequestPressure(cpuQueue::waiting);
    }

    @Bean
    OverloadLimiter overloadLimiter(OverloadSettings settings, DataSourceSettings pools, MeterRegistry meters,
            CpuQueueSampler cpuQueue, @Value("${server.tomcat.threads.max:200}") int serverThreads) {
        OverloadSizing.check(settings, pools, serverThreads);
        return new OverloadLimiter(settings, meters, System::nanoTime, cpuQueue::waiting);
    }

    @Bean
    FilterRegistrationBean<OverloadFilter> overloadFilter(OverloadLimiter limiter, OverloadSettings settings) {
        FilterRegistrationBean<OverloadFilter> registration =
                new FilterRegistrationBean<>(new OverloadFilter(limiter, settings.retryAfterSeconds()));
        registration.setOrder(ORDER);
        registration.addUrlPatterns("/*");
        return registration;
    }
}
