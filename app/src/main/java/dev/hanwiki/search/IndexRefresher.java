package dev.hanwiki.search;

import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import java.time.Duration;

/**
 * Makes what the indexer wrote visible to searches every {@code refresh-interval} without
 * blocking the writer ({@link PostIndex#refreshIfDue()}); in bulk mode at most every
 * {@link IndexCommits#BULK_REFRESH_MILLIS}. Stops after everything that reads or writes the index,
 * before the index closes.
 */
final class IndexRefresher extends Background {

    private final PostIndex index;
    private final Duration every;

    IndexRefresher(PostIndex index, SearchSettings settings) {
        super("post-index-refresher", Phases.INDEX, Duration.ofSeconds(5));
        this.index = index;
        this.every = settings.refreshInterval();
    }

    @Override
    protected void onStart() {
        every(every, every, index::refreshIfDue);
    }
}
