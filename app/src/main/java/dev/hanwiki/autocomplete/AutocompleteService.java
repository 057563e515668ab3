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

/**
 * Answers a typed prefix: from the Redis prefix keys of the current version when they can
 * answer completely, otherwise from this node's index ({@link TitleFallback}). Redis entries are
 * only candidates: each is checked against its post's record (current title, not deleted) and
 * against the prefix, so a stale entry is never shown. The fallback is used when
 * <ul>
 *   <li>a shard holding a key or record is down, slow or behind an open breaker ({@code unavailable});</li>
 *   <li>that shard lost its keys (restarted) or nothing was built yet ({@code not-built});</li>
 *   <li>the keys found nothing ({@code empty}: an empty answer is confirmed by the index, cheap
 *       because a prefix no title has is a miss in the term dictionary);</li>
 *   <li>a full key could not fill the answer after stale entries were dropped ({@code incomplete}).</li>
 * </ul>
 */
final class AutocompleteService {

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
        Set<Long> ids = new LinkedHashSet<>();
        boolean full = false;
        for (CompletableFuture<List<ScoredValue<byte[]>>> read : reads) {
            List<ScoredValue<byte[]>> entries = read.join();
            if (entries == null) {
                return new FromRedis(null, "unavailable");
            }
            full |= entries.size() >= settings.keep();
            for (ScoredValue<byte[]> entry : entries) {
                ids.add(Long.parseLong(new String(entry.getValue(), StandardCharsets.UTF_8)));
            }
        }
        if (ids.isEmpty()) {
            return new FromRedis(null, "empty");
        }
        List<Long> idList = new ArrayList<>(ids);
        List<CompletableFuture<byte[]>> records = new ArrayList<>(idList.size());
        for (long id : idList) {
            if (state.lostShards().contains(store.shardOfRecord(version, id))) {
                return new FromRedis(null, "not-built");
            }
            records.add(store.record(version, id));
        }
        List<TitleStore.Entry> live = new ArrayList<>();
        for (int i = 0; i < idList.size(); i++) {
            byte[] record = records.get(i).join();
            if (record == TitleStore.UNAVAILABLE) {
                return new FromRedis(null, "unavailable");
            }
            TitleStore.Entry entry = TitleStore.parse(idList.get(i), record);
            if (entry != null && lookup.matches(entry.title())) {
                live.add(entry);
            }
        }
        if (live.size() < settings.results() && (full || lookup.truncated())) {
            return new FromRedis(null, "incomplete");
        }
        if (live.isEmpty()) {
            return new FromRedis(null, "empty");
        }
        live.sort(Comparator.comparingDouble((TitleStore.Entry e) -> -e.score()).thenComparingLong(TitleStore.Entry::id));
        return new FromRedis(live.stream().limit(settings.results()).map(e -> new Suggestion(e.id(), e.title())).toList(),
                null);
    }
}
