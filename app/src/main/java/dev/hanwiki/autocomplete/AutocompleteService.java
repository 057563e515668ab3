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
 * answer completely, otherwise from this node's index ({@link TitleFallback}). Redis entries are
 * only candidates: each is checked against its record (a post's current title, not deleted; a
 * popular query's, not expired) and against the prefix, so a stale entry is never shown; the
 * records are read with one script per shard. A query that reads like one of the titles is
 * dropped (the title stays). The index knows titles only, so the fallback is used when
 * <ul>
 *   <li>a shard holding a key or record is down, slow or behind an open breaker ({@code unavailable});</li>
 *   <li>that shard lost its keys (restarted) or nothing was built yet ({@code not-built});</li>
 *   <li>the keys found nothing ({@code empty}: an empty answer is confirmed by the index, cheap
 *       because a prefix no title has is a miss in the term dictionary);</li>
 *   <li>a full key could not fill the answer after stale entries were dropped ({@code incomplete}).</li>
 * </ul>
 */
final class AutocompleteService {

    private static final Logger log = LoggerFactory.getLogger(AutocompleteService.class);

    /** An answer and where it came from ({@code redis} or {@code fallback}). */
    record Answer(List<Suggestion> suggestions, String source) {
    }

    private final TitleStore store;
    private final KeyVersions versions;
    private final PrefixKeys keys;
    private final TitleFallback fallback;
    private final AutocompleteSettings settings;
    private final MeterRegistry meters;
    private final Timer redisTimer;
    private final Timer fallbackTimer;
    private final Map<String, Counter> fallbackReasons = new ConcurrentHashMap<>();
    private volatile long lastErrorLog = System.nanoTime() - TimeUnit.MINUTES.toNanos(2);

    AutocompleteService(TitleStore store, KeyVersions versions, PrefixKeys keys, TitleFallback fallback,
            AutocompleteSettings settings, MeterRegistry meters) {
        this.store = store;
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
    private record FromRedis(List<Suggestion> answer, String reason) {
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
        List<CompletableFuture<List<ScoredValue<byte[]>>>> reads = lookup.keys().stream()
                .map(suffix -> store.top(version, suffix)).toList();
        Set<String> members = new LinkedHashSet<>();
        boolean full = false;
        for (CompletableFuture<List<ScoredValue<byte[]>>> read : reads) {
            List<ScoredValue<byte[]>> entries = read.join();
            if (entries == null) {
                return new FromRedis(null, "unavailable");
            }
            full |= entries.size() >= settings.keep();
            for (ScoredValue<byte[]> entry : entries) {
                members.add(new String(entry.getValue(), StandardCharsets.UTF_8));
            }
        }
        if (members.isEmpty()) {
            return new FromRedis(null, "empty");
        }
        List<String> memberList = new ArrayList<>(members);
        for (String member : memberList) {
            if (state.lostShards().contains(store.shardOfRecord(version, member))) {
                return new FromRedis(null, "not-built");
            }
        }
        List<byte[]> records = store.records(version, memberList).join();
        List<Candidate> live = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (int i = 0; i < memberList.size(); i++) {
            byte[] record = records.get(i);
            if (record == TitleStore.UNAVAILABLE) {
                return new FromRedis(null, "unavailable");
            }
            Candidate c = Candidate.of(memberList.get(i), record, now);
            if (c != null && lookup.matches(c.text())) {
                live.add(c);
            }
        }
        live = Candidate.withoutQueriesEqualToTitles(live);
        if (live.size() < settings.results() && (full || lookup.truncated())) {
            return new FromRedis(null, "incomplete");
        }
        if (live.isEmpty()) {
            return new FromRedis(null, "empty");
        }
        live.sort(Candidate.ORDER);
        return new FromRedis(live.stream().limit(settings.results()).map(Candidate::suggestion).toList(), null);
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
