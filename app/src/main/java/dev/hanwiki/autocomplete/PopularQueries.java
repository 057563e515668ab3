package dev.hanwiki.autocomplete;

import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.hanwiki.platform.AccountAges;
import dev.hanwiki.search.SearchAnswered;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;

/**
 * Turns searches into autocomplete entries (ADR 0038). On the request thread, a search that
 * found results is normalized ({@link QueryText}) and counted in this node's
 * {@link QueryTally}: no Redis call per search. Every {@code flush} one thread sends the
 * tally to the shared distinct-client counts ({@link QueryCounter}, one script per shard),
 * and files every query those counts call popular into the current key version(s)
 * ({@link QueryStore}), unless this node filed it there recently with about the same score.
 * Every minute it sweeps expired entries out of the keys.
 */
final class PopularQueries extends Background {

    private static final Logger log = LoggerFactory.getLogger(PopularQueries.class);
    private static final long SWEEP_MILLIS = 60_000;

    private final QueryCounter counter;
    private final QueryStore store;
    private final KeyVersions versions;
    private final AccountAges accountAges;
    private final QuerySettings settings;
    private final QueryTally tally;
    /** What this node filed lately, per version and query: the score it filed. */
    private final Cache<String, Double> filed;
    private final Map<QueryTally.Outcome, Counter> searches = new EnumMap<>(QueryTally.Outcome.class);
    private final Counter rejected;
    private final Counter filings;
    private final Counter expired;
    private long lastSweep;

    PopularQueries(QueryCounter counter, QueryStore store, KeyVersions versions, QuerySettings settings,
            MeterRegistry meters, AccountAges accountAges) {
        super("autocomplete-queries", Phases.SERVING, Duration.ofSeconds(5));
        this.accountAges = accountAges;
        this.counter = counter;
        this.store = store;
        this.versions = versions;
        this.settings = settings;
        this.tally = new QueryTally(settings.maxPending(), settings.clientsPerQuery(), settings.perClient());
        this.filed = Caffeine.newBuilder().maximumSize(4L * settings.maxPending())
                .expireAfterWrite(settings.remember()).build();
        for (QueryTally.Outcome outcome : QueryTally.Outcome.values()) {
            searches.put(outcome, searchCounter(meters, outcome.name().toLowerCase()));
        }
        this.rejected = searchCounter(meters, "rejected");
        this.filings = Counter.builder("hanwiki.autocomplete.queries.filed")
                .description("popular queries written into the autocomplete keys").register(meters);
        this.expired = Counter.builder("hanwiki.autocomplete.queries.expired")
                .description("query entries swept out after their expiry").register(meters);
    }

    @Override
    protected void onStart() {
        if (settings.enabled()) {
            every(settings.flush(), settings.flush(), this::flushQuietly);
        }
    }

    private static Counter searchCounter(MeterRegistry meters, String outcome) {
        return Counter.builder("hanwiki.autocomplete.queries.searches").tag("outcome", outcome)
                .description("searches with results seen for query entries, by what became of them").register(meters);
    }

    /** Runs on the request thread: must be quick and must not throw. */
    @EventListener
    void on(SearchAnswered searched) {
        if (!settings.enabled()) {
            return;
        }
        try {
            var query = QueryText.normalize(searched.query(), settings.maxChars());
            if (query.isEmpty()) {
                rejected.increment();
                return;
            }
            searches.get(tally.add(query.get(), clientId(client(searched)))).increment();
        } catch (RuntimeException e) {
            log.debug("Search not counted for autocomplete", e);
        }
    }

    /**
     * Who counts as the client (ADR 0089): an account old enough to have cost something, else the
     * address nginx saw. Three accounts made a minute ago at one address are one client.
     */
    private String client(SearchAnswered searched) {
        if (searched.userId() != null && accountAges.olderThan(searched.userId(), settings.minAccountAge())) {
            return "u:" + searched.userId();
        }
        return "a:" + searched.address();
    }

    /** Clients go to Redis as a hash: the count needs them distinct, not readable. */
    static String clientId(String client) {
        return QueryStore.hash(client);
    }

    private void flushQuietly() {
        try {
            flush(System.currentTimeMillis());
        } catch (RuntimeException e) {
            log.warn("Popular query flush failed: {}", e.toString());
        }
    }

    /** Sends what was counted, files what is popular, and now and then sweeps expired entries. */
    void flush(long now) {
        Map<String, Set<String>> counted = tally.drain();
        if (!counted.isEmpty()) {
            Set<String> banned = store.banned();
            counted.keySet().removeAll(banned);
            Map<String, Long> counts = counter.count(counted, now).join();
            List<Long> targets = versions.writeTargets();
            List<CompletableFuture<Boolean>> writes = new ArrayList<>();
            for (var e : counts.entrySet()) {
                if (!settings.popular(e.getValue())) {
                    continue;
                }
                double score = settings.score(e.getValue());
                long expiresAt = now + settings.ttl().toMillis();
                for (long version : targets) {
                    String key = version + "\u0000" + e.getKey();
                    if (settings.refile(filed.getIfPresent(key), score)) {
                        writes.add(store.file(version, e.getKey(), score, expiresAt).thenApply(ok -> {
                            if (ok) {
                                filed.put(key, score);
                                filings.increment();
                            }
                            return ok;
                        }));
                    }
                }
            }
            // A failed filing is not retried as such: the next search of a still popular query files it.
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
        }
        if (now - lastSweep >= SWEEP_MILLIS) {
            lastSweep = now;
            for (long version : versions.writeTargets()) {
                expired.increment(store.sweep(version, now));
            }
        }
    }

    /**
     * An operator removes a query entry (ADR 0089): it leaves every key version at once and is
     * never filed again. The text is normalized as searches are, so any spelling of it works.
     *
     * @return the normalized query, or empty if the text can never be an entry
     */
    Optional<String> remove(String text) {
        Optional<String> query = QueryText.normalize(text, settings.maxChars());
        if (query.isPresent()) {
            if (!store.ban(query.get())) {
                throw new IllegalStateException("the shard of the banned-query set did not answer");
            }
            for (long version : versions.writeTargets()) {
                store.remove(version, query.get());
            }
            filed.invalidateAll();
        }
        return query;
    }
}
