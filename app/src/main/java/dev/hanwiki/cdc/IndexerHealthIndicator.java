package dev.hanwiki.cdc;

import dev.hanwiki.search.PostIndex;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Health contributor {@code indexer} (part of the readiness group): UP once the index is open
 * and has applied the change stream up to where it ended when this node started, so a node
 * that is still rebuilding its index takes no search traffic. DOWN says what it waits for.
 */
@Component
class IndexerHealthIndicator implements HealthIndicator {

    private final PostIndex index;
    private final IndexerProgress progress;

    IndexerHealthIndicator(PostIndex index, IndexerProgress progress) {
        this.index = index;
        this.progress = progress;
    }

    @Override
    public Health health() {
        IndexerProgress.Snapshot state = progress.snapshot();
        boolean open = index.isOpen();
        Health.Builder health = open && state.caughtUp() ? Health.up() : Health.down();
        health.withDetail("indexOpen", open)
                .withDetail("phase", state.phase().name())
                .withDetail("caughtUp", state.caughtUp())
                .withDetail("insideSnapshot", state.insideSnapshot())
                .withDetail("targetOffsets", state.targetOffsets())
                .withDetail("appliedOffsets", state.appliedOffsets());
        if (state.lastError() != null) {
            health.withDetail("lastError", state.lastError());
        }
        return health.build();
    }
}
