package dev.hanwiki.autocomplete;

import dev.hanwiki.cache.ShardedRedis;
import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import io.lettuce.core.KeyValue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which key version this node reads and writes. Every shard holds the current version number
 * ({@link TitleStore#VERSION_KEY}) and, while a rebuild runs, the version being built; this
 * node reads them when it starts and every {@code pointerPoll} after. The newest current version any shard reports
 * wins. A reachable shard that reports no or an older version has lost its keys (a restart
 * of a cache shard without persistence, or it was down during a rebuild): its prefixes are
 * answered from the index until the next rebuild.
 */
final class KeyVersions extends Background {

    private static final Logger log = LoggerFactory.getLogger(KeyVersions.class);

    /** What the shards say. {@code current} is 0 before the first build. */
    record State(long current, long building, Set<String> lostShards) {
    }

    private final ShardedRedis redis;
    private final Duration every;
    private volatile State state = new State(0, 0, Set.of());
    /** A rebuild on THIS node: known here before any shard says so. */
    private volatile long localBuilding;
    private volatile boolean pollFailed;
    /** Per shard, the last {version, building} it answered with. */
    private final java.util.Map<String, long[]> lastSeen = new java.util.concurrent.ConcurrentHashMap<>();

    KeyVersions(ShardedRedis redis, Duration every) {
        super("autocomplete-versions", Phases.SERVING, Duration.ofSeconds(5));
        this.redis = redis;
        this.every = every;
    }

    /** The first poll before anything that reads the state starts (the rebuild trigger, requests). */
    @Override
    protected void onStart() {
        pollQuietly();
        every(every, every, this::pollQuietly);
    }

    State state() {
        return state;
    }

    long current() {
        return state.current();
    }

    /** The versions a change must be written to: the current one and any being built. */
    List<Long> writeTargets() {
        State s = state;
        long building = Math.max(s.building(), localBuilding);
        if (building > 0 && building != s.current()) {
            return s.current() > 0 ? List.of(s.current(), building) : List.of(building);
        }
        return s.current() > 0 ? List.of(s.current()) : List.of();
    }

    void buildingHere(long version) {
        localBuilding = version;
    }

    /** After this node switched the shards to {@code version}: use it at once. */
    void switchedHere(long version) {
        localBuilding = 0;
        lastSeen.replaceAll((shard, seen) -> new long[] {version, 0});
        state = new State(version, 0, Set.of());
    }

    void buildAbandonedHere() {
        localBuilding = 0;
    }

    private void pollQuietly() {
        try {
            poll();
            if (pollFailed) {
                pollFailed = false;
                log.info("Autocomplete version poll works again");
            }
        } catch (RuntimeException e) {
            if (!pollFailed) {
                pollFailed = true;
                log.warn("Autocomplete version poll failed: {}", e.toString());
            }
        }
    }

    /**
     * Reads both pointers from every shard at once and recomputes the state. A shard that does
     * not answer this time (a slow command under load) keeps what it said last time, so one
     * timeout does not flip the version back and forth.
     */
    void poll() {
        List<String> names = redis.shardNames();
        List<CompletableFuture<List<KeyValue<String, byte[]>>>> answers = names.stream()
                .map(n -> redis.onShard(n, c -> c.mget(TitleStore.VERSION_KEY, TitleStore.BUILDING_KEY),
                        (List<KeyValue<String, byte[]>>) null))
                .toList();
        for (int i = 0; i < names.size(); i++) {
            List<KeyValue<String, byte[]>> kv = answers.get(i).join();
            if (kv != null) {
                lastSeen.put(names.get(i), new long[] {number(kv.get(0)), number(kv.get(1))});
            }
        }
        long current = 0;
        long building = 0;
        for (long[] seen : lastSeen.values()) {
            current = Math.max(current, seen[0]);
            building = Math.max(building, seen[1]);
        }
        State previous = state;
        if (current < previous.current()) {
            current = previous.current(); // never step back
        }
        Set<String> lost = new HashSet<>();
        for (var e : lastSeen.entrySet()) {
            if (current > 0 && e.getValue()[0] != current) {
                lost.add(e.getKey());
            }
        }
        State next = new State(current, building, Set.copyOf(lost));
        if (!next.equals(previous)) {
            log.info("Autocomplete keys: current version {}, building {}, shards without the current keys {}",
                    current, building, lost);
        }
        state = next;
    }

    private static long number(KeyValue<String, byte[]> kv) {
        if (kv == null || !kv.hasValue()) {
            return 0;
        }
        try {
            return Long.parseLong(new String(kv.getValue(), StandardCharsets.UTF_8));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
