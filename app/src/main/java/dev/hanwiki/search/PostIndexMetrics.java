package dev.hanwiki.search;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.stereotype.Component;

/** Publishes {@code hanwiki_index_docs}: live documents visible to searches on this node. */
@Component
class PostIndexMetrics implements MeterBinder {

    private final PostIndex index;

    PostIndexMetrics(PostIndex index) {
        this.index = index;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("hanwiki.index.docs", index, PostIndexMetrics::liveDocs)
                .description("Live documents in this node's search index")
                .register(registry);
    }

    private static double liveDocs(PostIndex index) {
        // A scrape during shutdown must not fail the whole scrape.
        return index.isOpen() ? index.docCounts().numDocs() : Double.NaN;
    }
}
