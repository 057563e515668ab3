package dev.hanwiki.search;

import java.io.IOException;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The search feature's long-lived resources: the analysis and this node's index, and the threads that keep them current. */
@Configuration(proxyBeanMethods = false)
class SearchConfiguration {

    @Bean
    SearchAnalysis searchAnalysis(SearchSettings settings) {
        return new SearchAnalysis(settings);
    }

    @Bean
    AnalysisReloader analysisReloader(SearchAnalysis analysis, SearchSettings settings) {
        return new AnalysisReloader(analysis, settings);
    }

    @Bean(destroyMethod = "close")
    PostIndex postIndex(SearchSettings settings, SearchAnalysis analysis, ObjectProvider<Clock> clock) throws IOException {
        return new PostIndex(settings, analysis, clock.getIfAvailable(Clock::systemUTC));
    }

    @Bean
    IndexRefresher indexRefresher(PostIndex index, SearchSettings settings) {
        return new IndexRefresher(index, settings);
    }
}
