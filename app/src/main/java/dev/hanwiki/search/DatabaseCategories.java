package dev.hanwiki.search;

import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import dev.hanwiki.platform.ReplicaReads;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * The categories table (replica, primary while it is down), re-read every {@link #REFRESH}:
 * categories are curated reference data that change rarely. Reads happen on this bean's thread;
 * a search never waits for the database. A failed read keeps the last known names and is
 * retried after {@link #RETRY}; until a first read succeeds, facets are keyed by category id.
 */
@Component
class DatabaseCategories extends Background implements Categories {

    static final Duration REFRESH = Duration.ofMinutes(5);
    static final Duration RETRY = Duration.ofSeconds(10);
    private static final Logger log = LoggerFactory.getLogger(DatabaseCategories.class);

    private final ReplicaReads db;
    private final Clock clock;
    private final AtomicBoolean reading = new AtomicBoolean();
    private volatile Map<Long, String> names = Map.of();
    private volatile Instant nextRead = Instant.MIN;

    DatabaseCategories(ReplicaReads db, Clock clock) {
        super("category-names", Phases.SERVING, Duration.ofSeconds(2));
        this.db = db;
        this.clock = clock;
    }

    @Override
    protected void onStart() {
        readInBackground();
    }

    @Override
    public Map<Long, String> names() {
        if (clock.instant().isAfter(nextRead)) {
            readInBackground();
        }
        return names;
    }

    private void readInBackground() {
        if (running() && reading.compareAndSet(false, true)) {
            try {
                submit(() -> {
                    try {
                        read();
                    } finally {
                        reading.set(false);
                    }
                });
            } catch (RuntimeException e) {
                reading.set(false); // stopping
            }
        }
    }

    /** Reads the table now, on the caller's thread. */
    void read() {
        try {
            names = db.query(jdbc -> jdbc.sql("SELECT id, name FROM categories")
                    .query((rs, row) -> Map.entry(rs.getLong("id"), rs.getString("name")))
                    .list().stream()
                    .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue)));
            nextRead = clock.instant().plus(REFRESH);
        } catch (DataAccessException | IllegalStateException e) {
            nextRead = clock.instant().plus(RETRY);
            log.warn("Category names unavailable ({}); facets keep {} known names", e.getMessage(), names.size());
        }
    }
}
