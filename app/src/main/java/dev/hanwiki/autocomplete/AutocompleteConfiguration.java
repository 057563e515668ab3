package dev.hanwiki.autocomplete;

import dev.hanwiki.platform.AccountAges;
import dev.hanwiki.cache.ShardedRedis;
import dev.hanwiki.change.IndexCatchUp;
import dev.hanwiki.platform.NodeSettings;
import dev.hanwiki.platform.RequestPressure;
import dev.hanwiki.search.PostIndex;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The autocomplete feature's parts: keys, stores, version pointer, change writer, popular queries, rebuild. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AutocompleteSettings.class)
class AutocompleteConfiguration {

    @Bean
    PrefixKeys prefixKeys(AutocompleteSettings settings) {
        return new PrefixKeys(settings.maxKeyChars());
    }

    @Bean
    TitleStore titleStore(ShardedRedis redis, PrefixKeys keys, AutocompleteSettings settings) {
        return new TitleStore(redis, keys, settings.keep());
    }

    @Bean
    KeyVersions keyVersions(ShardedRedis redis, AutocompleteSettings settings) {
        return new KeyVersions(redis, settings.pointerPoll());
    }

    @Bean
    TitleChangeWriter titleChangeWriter(TitleStore store, KeyVersions versions, AutocompleteSettings settings,
            MeterRegistry meters) {
        return new TitleChangeWriter(store, versions, settings, meters);
    }

    @Bean
    QueryStore queryStore(TitleStore titles, PrefixKeys keys, AutocompleteSettings settings) {
        return new QueryStore(titles, keys, settings.queries().keep());
    }

    @Bean
    PopularQueries popularQueries(ShardedRedis redis, QueryStore store, KeyVersions versions,
            AutocompleteSettings settings, MeterRegistry meters, AccountAges accountAges) {
        return new PopularQueries(new QueryCounter(redis, settings.queries().window()), store, versions,
                settings.queries(), meters, accountAges);
    }

    @Bean
    AutocompleteService autocompleteService(TitleStore store, QueryStore queries, KeyVersions versions, PrefixKeys keys,
            PostIndex index, AutocompleteSettings settings, MeterRegistry meters) {
        return new AutocompleteService(store, queries, versions, keys, new TitleFallback(index, settings.fallbackCandidates()),
                settings, meters);
    }

    @Bean
    AutocompleteRebuild autocompleteRebuild(PostIndex index, IndexCatchUp catchUp, TitleStore store, KeyVersions versions,
            AutocompleteSettings settings, NodeSettings node, ObjectProvider<RequestPressure> pressure) {
        return new AutocompleteRebuild(index, catchUp, store, versions, settings, node,
                pressure.getIfAvailable(() -> RequestPressure.NONE));
    }

    @Bean
    RebuildTrigger rebuildTrigger(KeyVersions versions, AutocompleteRebuild rebuild, PostIndex index,
            IndexCatchUp catchUp, AutocompleteSettings settings) {
        return new RebuildTrigger(versions, rebuild, index, catchUp, settings.autoRebuild());
    }
}
