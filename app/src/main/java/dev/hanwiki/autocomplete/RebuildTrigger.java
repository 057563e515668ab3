package dev.hanwiki.autocomplete;

import dev.hanwiki.change.IndexCatchUp;
import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import dev.hanwiki.search.PostIndex;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a rebuild by itself when there is nothing to read: no version was ever built (a new
 * stack), or a shard came back without its keys (cache shards do not persist). Only while
 * this node's index has caught up with the change stream ({@link IndexCatchUp}), at most every {@link #AFTER_FAILURE_MILLIS}
 * after a failed attempt; the rebuild lock keeps the two nodes from building twice.
 */
final class RebuildTrigger extends Background {

    private static final Logger log = LoggerFactory.getLogger(RebuildTrigger.class);
    private static final long AFTER_FAILURE_MILLIS = 30_000;

    private final KeyVersions versions;
    private final AutocompleteRebuild rebuild;
    private final PostIndex index;
    private final IndexCatchUp catchUp;
    private final boolean enabled;
    private long lastAttempt;

    RebuildTrigger(KeyVersions versions, AutocompleteRebuild rebuild, PostIndex index, IndexCatchUp catchUp, boolean enabled) {
        super("autocomplete-rebuild-trigger", Phases.SERVING, Duration.ofSeconds(5));
        this.versions = versions;
        this.rebuild = rebuild;
        this.index = index;
        this.catchUp = catchUp;
        this.enabled = enabled;
    }

    @Override
    protected void onStart() {
        if (enabled) {
            every(Duration.ofSeconds(3), Duration.ofSeconds(2), this::check);
        }
    }

    private void check() {
        try {
            KeyVersions.State state = versions.state();
            boolean needed = state.current() == 0 || !state.lostShards().isEmpty();
            if (!needed || state.building() != 0 || !catchUp.caughtUp() || !index.isOpen()) {
                return;
            }
            String last = rebuild.progress().state();
            long now = System.currentTimeMillis();
            if ("FAILED".equals(last) && now - lastAttempt < AFTER_FAILURE_MILLIS) {
                return;
            }
            lastAttempt = now;
            if (rebuild.begin() == null) {
                log.info("Autocomplete rebuild started by itself: {}", state.current() == 0
                        ? "no version built yet" : "shards " + state.lostShards() + " lost their keys");
            }
        } catch (RuntimeException e) {
            log.warn("Autocomplete rebuild check failed: {}", e.toString());
        }
    }
}
