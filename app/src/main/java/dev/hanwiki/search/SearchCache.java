package dev.hanwiki.search;

import dev.hanwiki.cache.TieredCache;
import dev.hanwiki.cache.TieredCaches;
import dev.hanwiki.change.IndexPosition;
import dev.hanwiki.change.PostsIndexed;
import dev.hanwiki.change.TermHashes;
import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Search responses through the tiered cache (region {@code search}), with a staleness bound
 * instead of per-entry invalidation (ADR 0033): a search answer depends on every post that
 * might match, so no single change names the entries it affects.
 *
 * <p>This node keeps an index EPOCH: it starts when the node's searcher shows a change
 * ({@link PostsIndexed}), at most once per {@code staleness}; a change that arrives sooner is
 * folded into an epoch started when that interval is up. A new epoch drops this node's L1
 * answers, and an answer (from L1 or L2) counts only if its computation began in the current
 * epoch. So an answer misses an indexed change for at most {@code staleness}; with no writes,
 * answers live for their TTL.
 *
 * <p>The L2 answers are shared by both nodes, and one node's indexer can lag the other's. So an
 * answer also records where its node's search stood in the change stream when it began
 * ({@link IndexPosition}), and a node serves it only if that position covers the one this
 * node's epoch began at: an answer from a node that had not yet shown a change this node
 * shows is recomputed, not served until this node's next epoch (which, with no further
 * writes, would be its TTL).
 *
 * <p>Pages new to the index start no epoch (ADR 0099) when the indexer announces the terms they
 * were indexed with: those go into {@link Additions}, and an answer is not served once this node
 * shows an added page holding one of the answer's {@code triggers} (terms one of which every
 * match holds, {@link SearchTerms}) that the answer's own index had not shown. An answer whose
 * triggers are unknown is not served once any page was added after it began. Edits and deletes
 * still start epochs, and so does each counter write that shows held ranking-bucket moves
 * ({@link #countersShown}); the likes and view flushes that cause those moves do not, as the
 * index does not show them before that write (ADR 0080).
 */
@Component
class SearchCache extends Background {

    private static final Logger log = LoggerFactory.getLogger(SearchCache.class);
    private static final int MAX_PLAIN_KEY = 200;
    /** Added terms kept before an epoch starts anyway (a node rebuilding its index adds every page): about 10 MB. */
    static final int MAX_ADDED_TERMS = 200_000;
    /** A batch of more new pages than this (an indexer catching up) starts an epoch instead of adding their terms. */
    static final int MAX_ADDED_PAGES = 64;

    /**
     * A cached answer and when its computation began. {@code partial}: computed without the
     * database's details (nicknames, live counts) because it failed, or stopped at its time
     * budget (ADR 0087); served, never cached.
     */
    record CachedSearch(long startedAtMillis, IndexPosition position, SearchResponse response, boolean partial,
            List<Long> triggers) {

        /** Whether this answer may be served in {@code epoch}: whole, begun in it, from an index that showed what it began with. */
        boolean servableIn(Epoch epoch) {
            return !partial && startedAtMillis >= epoch.startMillis()
                    && position != null && position.covers(epoch.position());
        }
    }

    /** When this node's current epoch began, and where its search stood then. */
    record Epoch(long startMillis, IndexPosition position) {
    }

    /** What a search computed; {@code partial} as in {@link CachedSearch}; {@code triggers} as in {@link SearchEngine.Result}. */
    record Computed(SearchResponse response, boolean partial, TermHashes triggers) {
    }

    /**
     * The pages added since the current epoch began, by term: for each term hash, where this
     * node's search stood once it showed the latest page holding it; and where it stood once it
     * showed the latest page of all. Cleared with each epoch (every answer then served began at
     * or after all of them). Written by the indexer thread under the epoch lock, read by any.
     */
    static final class Additions {

        private final Map<Long, IndexPosition> byTerm = new ConcurrentHashMap<>();
        private volatile IndexPosition last = IndexPosition.NONE;

        void add(TermHashes terms, IndexPosition shownAt) {
            terms.forEach(hash -> byTerm.put(hash, shownAt));
            last = shownAt;
        }

        /** Whether a page added here and not shown by the index {@code answer} was computed on may change it. */
        boolean touch(CachedSearch answer) {
            if (answer.position() == null) {
                return true;
            }
            if (answer.triggers() == null) {
                return !answer.position().covers(last);
            }
            for (Long hash : answer.triggers()) {
                IndexPosition added = byTerm.get(hash);
                if (added != null && !answer.position().covers(added)) {
                    return true;
                }
            }
            return false;
        }

        int terms() {
            return byTerm.size();
        }

        void clear() {
            byTerm.clear();
            last = IndexPosition.NONE;
        }
    }

    private final SearchCacheSettings settings;
    private final TieredCache<CachedSearch> answers;
    private final Clock clock;
    private final Object lock = new Object();
    private volatile Epoch epoch;
    private volatile IndexPosition shown = IndexPosition.NONE;
    private boolean epochScheduled;
    private final Duration counterWriteInterval;
    private final Additions additions = new Additions();
    /** Epochs begun, by what asked for them ({@code hanwiki_search_cache_epochs_total}). */
    private final Counter changeEpochs;
    private final Counter counterEpochs;
    private final Counter additionEpochs;
    /** What asked for the epoch that is scheduled (the first request; later ones fold into it). */
    private Counter scheduledCause;

    SearchCache(SearchCacheSettings settings, TieredCaches caches, Clock clock, PostIndex index, MeterRegistry meters) {
        super("search-cache-epoch", Phases.SERVING, Duration.ofSeconds(2));
        this.settings = settings;
        this.answers = caches.region(settings.region(), CachedSearch.class);
        this.clock = clock;
        this.epoch = new Epoch(clock.millis(), IndexPosition.NONE);
        this.counterWriteInterval = index.counterWriteInterval();
        this.changeEpochs = epochs(meters, "change");
        this.counterEpochs = epochs(meters, "counters");
        this.additionEpochs = epochs(meters, "added-terms");
        index.onCountersShown(this::countersShown);
    }

    private static Counter epochs(MeterRegistry meters, String cause) {
        return Counter.builder("hanwiki.search.cache.epochs").tag("cause", cause)
                .description("Search cache epochs begun (each drops this node's cached answers), by cause: "
                        + "change (an edit, delete or large batch), counters (a counter write showed bucket moves), "
                        + "added-terms (the table of new pages' terms filled up)")
                .register(meters);
    }

    /** The answer and whether it is partial (a partial answer was computed for this very call, and is not cached). */
    CachedSearch get(SearchRequest request, Supplier<Computed> origin) {
        return answers.await(key(request), k -> {
            long started = clock.millis();
            IndexPosition position = shown;
            Computed computed = origin.get();
            return Optional.of(new CachedSearch(started, position, computed.response(), computed.partial(),
                    computed.triggers() == null ? null : computed.triggers().toList()));
        }, value -> value.map(this::servable).orElse(false))
                .orElseThrow();
    }

    /** Whether {@code answer} may be served now: begun in this epoch, and no page added since that can change it. */
    boolean servable(CachedSearch answer) {
        return answer.servableIn(epoch) && !additions.touch(answer);
    }

    /** Node-local, on the indexer thread: start a new epoch now, or once the current one is old enough. */
    @EventListener
    void onIndexed(PostsIndexed indexed) {
        // Likes and view flushes changed no document this refresh shows (a bucket move is held
        // for the next counter write): answers computed before them are still what the index says.
        List<PostsIndexed.Change> rewritten = indexed.changes().stream().filter(PostsIndexed.Change::reindexed).toList();
        if (!rewritten.isEmpty() && rewritten.size() <= MAX_ADDED_PAGES
                && rewritten.stream().allMatch(c -> c.addedTerms() != null)) {
            synchronized (lock) { // with the epoch's start: an epoch clears only what its position covers
                rewritten.forEach(c -> additions.add(c.addedTerms(), indexed.position()));
                shown = indexed.position();
            }
            if (additions.terms() > MAX_ADDED_TERMS) {
                advance(additionEpochs);
            }
            return;
        }
        shown = indexed.position();
        if (!rewritten.isEmpty()) {
            advance(changeEpochs);
        }
    }

    /**
     * Held counter changes (announced when decided) just became visible here: a new epoch, and
     * another one a write interval later, by when the other node has shown them too (an L2
     * answer it computed before that carries this node's position but not the new ranking).
     */
    private void countersShown() {
        advance(counterEpochs);
        try {
            after(counterWriteInterval, () -> advance(counterEpochs));
        } catch (RuntimeException e) {
            log.warn("Search cache epoch after counter writes not scheduled: {}", e.toString());
        }
    }

    /** A new epoch now, or once the current one is old enough; {@code cause} counts it. */
    private void advance(Counter cause) {
        try {
            synchronized (lock) {
                if (epochScheduled) {
                    return;
                }
                long due = epoch.startMillis() + settings.staleness().toMillis() - clock.millis();
                if (due <= 0) {
                    newEpoch(cause);
                } else {
                    after(Duration.ofMillis(due), this::scheduledEpoch);
                    epochScheduled = true;
                    scheduledCause = cause;
                }
            }
        } catch (RuntimeException e) {
            log.warn("Search cache epoch not advanced: {}", e.toString());
        }
    }

    private void scheduledEpoch() {
        synchronized (lock) {
            epochScheduled = false;
            newEpoch(scheduledCause);
        }
    }

    private void newEpoch(Counter cause) {
        cause.increment();
        epoch = new Epoch(clock.millis(), shown);
        additions.clear();
        answers.evictAllLocal();
    }

    /** Query text up to 16 KB: long keys are hashed (SHA-256), short ones stay readable in redis-cli. */
    static String key(SearchRequest request) {
        // Exact searches (no keyboard rescue) answer differently: their keys start with "x".
        String plain = (request.exact() ? "x" : "") + request.size() + ":" + request.page() + ":" + (request.categoryId() == null ? "-" : request.categoryId())
                + ":" + request.q();
        if (plain.length() <= MAX_PLAIN_KEY) {
            return plain;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(plain.getBytes(StandardCharsets.UTF_8));
            return "h:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** Epochs start when changes are indexed ({@link #onIndexed}). */
    @Override
    protected void onStart() {
    }
}
