package dev.hanwiki.limits;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Puts the per-user write limits in front of the API's controllers. Through a provider, so a
 * web-slice test without this package's beans simply has no limits.
 */
@Configuration(proxyBeanMethods = false)
class LimitsConfiguration implements WebMvcConfigurer {

    private final ObjectProvider<WriteLimits> writeLimits;

    LimitsConfiguration(ObjectProvider<WriteLimits> writeLimits) {
        this.writeLimits = writeLimits;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        writeLimits.ifAvailable(limits -> registry.addInterceptor(new HandlerInterceptor() {
            @Override
            public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
                return limits.preHandle(request);
            }
        }).addPathPatterns("/api/**"));
    }
}
