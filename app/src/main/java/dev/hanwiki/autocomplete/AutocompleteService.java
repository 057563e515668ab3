package dev.hanwiki.autocomplete;

import dev.hanwiki.platform.InvalidInputException;
import io.lettuce.core.ScoredValue;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a typed prefix: from the Redis prefix keys of the current version when they can
 * answer completely, otherwise from this node's index ({@link TitleFallback}). The title keys and
 * the popular queries' own keys ({@link QueryStore}) are read together; their entries are only
 * candidates: each is checked against its record (a post's current title, not deleted; a
 * popular query's, not expired) and against the prefix, so a stale entry is never shown; the
 * records are read with one script per shard. A query that reads like one of the titles is
 * dropped (the title stays). The index knows titles only, so the fallback is used when
 * <ul>
 *   <li>a shard holding a key or record is down, slow or behind an open breaker ({@code unavailable});</li>
 *   <li>that shard lost its keys (restarted) or nothing was built yet ({@code not-built});</li>
 *   <li>the keys found nothing ({@code empty}: an empty answer is confirmed by the index, cheap
 *       because a prefix no title has is a miss in the term dictionary);</li>
 *   <li>a full title key could not fill the answer with titles after stale entries were dropped
 *       ({@code incomplete});</li>
 *   <li>a title key lists a post whose record is gone (its hash was evicted: {@code missing-record}).</li>
 * </ul>
 */
final class AutocompleteService {

    private static final Logger log = LoggerFactory.getLogger(AutocompleteService.class);

    /** An answer and where it came from ({@code redis} or {@code fallback}). */
    record Answer(List<Suggestion> suggestions, String source) {
    }

    private final TitleStore store;
    private final QueryStore queries;
    private final KeyVersions versions;
    private final PrefixKeys keys;
    private final TitleFallback fallback;
    private final AutocompleteSettings settings;
    private final MeterRegistry meters;
    private final Timer redisTimer;
    private final Timer fallbackTimer;
    private final Map<String, Counter> fallbackReasons = new ConcurrentHashMap<>();
    private volatile long lastErrorLog = System.nanoTime() - TimeUnit.MINUTES.toNanos(2);

    AutocompleteService(TitleStore store, QueryStore queries, KeyVersions versions, PrefixKeys keys,
            TitleFallback fallback, AutocompleteSettings settings, MeterRegistry meters) {
        this.store = store;
        this.queries = queries;
        this.versions = versions;
        this.keys = keys;
        this.fallback = fallback;
        this.settings = settings;
        this.meters = meters;
        this.redisTimer = timer("redis");
        this.fallbackTimer = timer("fallback");
    }

    private Timer timer(String source) {
        return Timer.builder("hanwiki.autocomplete.latency").tag("source", source)
                .description("autocomplete answers by source, and how long they took")
                .publishPercentileHistogram().register(meters);
    }

    Answer suggest(String prefix) {
        if (prefix == null || prefix.isBlank()) {
            throw new InvalidInputException("prefix must not be blank");
        }
        if (prefix.length() > settings.maxPrefixChars()) {
            throw new InvalidInputException("prefix must be at most " + settings.maxPrefixChars() + " characters");
        }
        long start = System.nanoTime();
        PrefixKeys.Lookup lookup = keys.lookup(prefix);
        if (lookup.isEmpty()) {
            redisTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            return new Answer(List.of(), "redis");
        }
        String reason;
        try {
            FromRedis redis = fromRedis(lookup);
            if (redis.answer != null) {
                redisTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                return new Answer(redis.answer, "redis");
            }
            reason = redis.reason;
        } catch (RuntimeException e) {
            reason = "error";
            long now = System.nanoTime();
            if (now - lastErrorLog > TimeUnit.MINUTES.toNanos(1)) {
                lastErrorLog = now;
                log.warn("Autocomplete from Redis failed, answering from the index (logged once a minute)", e);
            }
        }
        List<Suggestion> answer = fallback.suggest(lookup, settings.results());
        fallbackReasons.computeIfAbsent(reason, r -> Counter.builder("hanwiki.autocomplete.fallbacks").tag("reason", r)
                .description("answers from the index instead of Redis, by why").register(meters)).increment();
        fallbackTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        return new Answer(answer, "fallback");
    }

    /** Either a complete answer or the reason there is none. */
    record FromRedis(List<Suggestion> answer, String reason) {
    }

    private FromRedis fromRedis(PrefixKeys.Lookup lookup) {
        KeyVersions.State state = versions.state();
        long version = state.current();
        if (version == 0) {
            return new FromRedis(null, "not-built");
        }
        for (String suffix : lookup.keys()) {
            if (state.lostShards().contains(store.shardOf(version, suffix))) {
                return new FromRedis(null, "not-built");
            }
        }
        // Title keys and query keys (ADR 0038) at once; a query key on a shard that lost its
        // keys is not read: the index could not supply queries either.
        List<CompletableFuture<List<ScoredValue<byte[]>>>> titleReads = lookup.keys().stream()
                .map(suffix -> store.top(version, suffix)).toList();
        List<CompletableFuture<List<ScoredValue<byte[]>>>> queryReads = lookup.keys().stream()
                .map(QueryStore::queryKey)
                .filter(suffix -> !state.lostShards().contains(store.shardOf(version, suffix)))
                .map(suffix -> store.top(version, suffix, queries.keep())).toList();
        Set<String> members = new LinkedHashSet<>();
        boolean full = false;
        for (CompletableFuture<List<ScoredValue<byte[]>>> read : titleReads) {
            List<ScoredValue<byte[]>> entries = read.join();
            if (entries == null) {
                return new FromRedis(null, "unavailable");
            }
            // Only titles fill a title key, so "full" means what it meant before queries existed.
            full |= entries.size() >= settings.keep();
            entries.forEach(entry -> members.add(new String(entry.getValue(), StandardCharsets.UTF_8)));
        }
        for (CompletableFuture<List<ScoredValue<byte[]>>> read : queryReads) {
            List<ScoredValue<byte[]>> entries = read.join();
            if (entries != null) { // an unavailable query key costs its queries, not the titles
                entries.forEach(entry -> members.add(new String(entry.getValue(), StandardCharsets.UTF_8)));
            }
        }
        if (members.isEmpty()) {
            return new FromRedis(null, "empty");
        }
        List<String> memberList = new ArrayList<>();
        for (String member : members) {
            boolean lost = state.lostShards().contains(store.shardOfRecord(version, member));
            if (lost && !QueryStore.isQueryMember(member)) {
                return new FromRedis(null, "not-built");
            }
            if (!lost) {
                memberList.add(member);
            }
        }
        List<byte[]> records = store.records(version, memberList).join();
        return decide(memberList, records, full, lookup, settings.results(), System.currentTimeMillis());
    }

    /**
     * The answer the members read from the keys and their records give, or why there is none
     * (no I/O). A title member without a record means its record hash was evicted (ADR 0039):
     * titles of that hash would be missing from the answer, so it goes to the index
     * ({@code missing-record}). A query member without one was swept or evicted: it is left
     * out (the index has no queries to give instead).
     */
    static FromRedis decide(List<String> members, List<byte[]> records, boolean titlesFull, PrefixKeys.Lookup lookup,
            int results, long nowMillis) {
        List<Candidate> live = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            String member = members.get(i);
            byte[] record = records.get(i);
            boolean query = QueryStore.isQueryMember(member);
            if (record == TitleStore.UNAVAILABLE) {
                if (query) {
                    continue;
                }
                return new FromRedis(null, "unavailable");
            }
            if (record == null && !query) {
                return new FromRedis(null, "missing-record");
            }
            Candidate c = Candidate.of(member, record, nowMillis);
            if (c != null && lookup.matches(c.text())) {
                live.add(c);
            }
        }
        live = Candidate.withoutQueriesEqualToTitles(live);
        long titles = live.stream().filter(c -> c.id() != null).count();
        if (titles < results && (titlesFull || lookup.truncated())) {
            return new FromRedis(null, "incomplete");
        }
        if (live.isEmpty()) {
            return new FromRedis(null, "empty");
        }
        live.sort(Candidate.ORDER);
        return new FromRedis(live.stream().limit(results).map(Candidate::suggestion).toList(), null);
    }

    /** A checked entry: a live title (with its post id) or an unexpired query (id null). */
    record Candidate(Long id, String text, double score) {

        /** Most popular first; on a tie titles before queries, then by id or text. */
        static final Comparator<Candidate> ORDER = Comparator.comparingDouble((Candidate c) -> -c.score())
                .thenComparing(c -> c.id() == null)
                .thenComparing(c -> c.id() == null ? 0L : c.id())
                .thenComparing(Candidate::text);

        /** The entry a member's record confirms, or null (no record, a tombstone, expired). */
        static Candidate of(String member, byte[] record, long nowMillis) {
            if (QueryStore.isQueryMember(member)) {
                QueryStore.Entry q = QueryStore.parse(record);
                return q == null || q.expiresAt() <= nowMillis ? null : new Candidate(null, q.query(), q.score());
            }
            TitleStore.Entry t = TitleStore.parse(Long.parseLong(member), record);
            return t == null ? null : new Candidate(t.id(), t.title(), t.score());
        }

        /** A query that reads like one of the titles (normalized) adds nothing: the title, with its id, stays. */
        static List<Candidate> withoutQueriesEqualToTitles(List<Candidate> candidates) {
            Set<String> titles = new java.util.HashSet<>();
            for (Candidate c : candidates) {
                if (c.id() != null) {
                    titles.add(PrefixKeys.normalizeTitle(c.text()));
                }
            }
            return candidates.stream().filter(c -> c.id() != null || !titles.contains(c.text()))
                    .collect(java.util.stream.Collectors.toCollection(ArrayList::new));
        }

        Suggestion suggestion() {
            return id == null ? Suggestion.ofQuery(text) : Suggestion.ofTitle(id, text);
        }
    }
}
