package dev.hanwiki;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** A meter registry for web-layer test slices, which do not auto-configure metrics (the cache registers meters). */
@TestConfiguration(proxyBeanMethods = false)
public class TestMeters {

    @Bean
    MeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }
}
