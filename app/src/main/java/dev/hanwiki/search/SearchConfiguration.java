package dev.hanwiki.search;

import java.io.IOException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The search feature's long-lived resources: the analysis and this node's index. */
@Configuration(proxyBeanMethods = false)
class SearchConfiguration {

    @Bean(destroyMethod = "close")
    SearchAnalysis searchAnalysis(SearchSettings settings) {
        return new SearchAnalysis(settings);
    }

    @Bean(destroyMethod = "close")
    PostIndex postIndex(SearchSettings settings, SearchAnalysis analysis) throws IOException {
        return new PostIndex(settings, analysis);
    }
}
