package dev.hanwiki.cache;

import dev.hanwiki.lifecycle.Threads;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ExecutorService;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the L2 shards and the executor on which cache misses load from the origin. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(CacheSettings.class)
class CacheConfiguration {

    @Bean(destroyMethod = "close")
    ShardedRedis shardedRedis(CacheSettings settings, MeterRegistry meters) {
        return new ShardedRedis(settings, meters);
    }

    /** Origin loads block on JDBC or Lucene: virtual threads, so a burst of misses never starves a pool. */
    @Bean(destroyMethod = "close")
    ExecutorService cacheLoadExecutor() {
        return Threads.virtualPerTask("cache-load-");
    }
}
