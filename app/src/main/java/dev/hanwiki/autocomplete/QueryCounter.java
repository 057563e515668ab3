package dev.hanwiki.autocomplete;

import dev.hanwiki.cache.ShardedRedis;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The shared count of distinct clients per query, in HyperLogLogs on the cache shards:
 * {@code hw:aq:<window>:<query>} per counting window, expiring after two windows. Both nodes
 * add their clients to the same key, so a client seen by both nodes counts once, and a query's
 * count is the union of the current and the previous window (one {@code PFCOUNT} of both keys).
 * Both keys of a query live on the shard the ring picks for {@code hw:aq:<query>} (the count
 * needs them together). One script per shard per flush adds every query's clients and returns
 * the counts. The keys are outside the autocomplete versions ({@code hw:ac:}): a rebuild
 * neither needs nor drops them.
 */
final class QueryCounter {

    static final String ROOT = "hw:aq:";

    // KEYS: per query, its current and its previous window. ARGV[1]: expiry in ms; then per
    // query the number of clients followed by the clients. Returns the counts, in KEYS order.
    private static final String COUNT = """
            local a = 2
            local out = {}
            for i = 1, #KEYS / 2 do
              local n = tonumber(ARGV[a])
              local cur = KEYS[2 * i - 1]
              redis.call('PFADD', cur, unpack(ARGV, a + 1, a + n))
              redis.call('PEXPIRE', cur, ARGV[1])
              a = a + n + 1
              out[i] = redis.call('PFCOUNT', cur, KEYS[2 * i])
            end
            return out
            """;

    private final ShardedRedis redis;
    private final long windowMillis;

    QueryCounter(ShardedRedis redis, Duration window) {
        this.redis = redis;
        this.windowMillis = window.toMillis();
    }

    /**
     * Adds the clients and returns each query's distinct clients over the current and previous
     * windows. Queries whose shard did not answer are missing from the result (their clients
     * of this flush are lost: a count, not an acknowledged write).
     */
    CompletableFuture<Map<String, Long>> count(Map<String, Set<String>> clientsByQuery, long nowMillis) {
        long window = nowMillis / windowMillis;
        Map<String, List<String>> byShard = new LinkedHashMap<>();
        for (String query : clientsByQuery.keySet()) {
            byShard.computeIfAbsent(redis.shardNameFor(ROOT + query), s -> new ArrayList<>()).add(query);
        }
        byte[] expiry = TitleStore.bytes(Long.toString(2 * windowMillis + 60_000));
        Map<String, Long> counts = new HashMap<>();
        List<CompletableFuture<Void>> scripts = new ArrayList<>();
        for (var e : byShard.entrySet()) {
            List<String> queries = e.getValue();
            List<String> keys = new ArrayList<>(2 * queries.size());
            List<byte[]> args = new ArrayList<>();
            args.add(expiry);
            for (String query : queries) {
                keys.add(key(window, query));
                keys.add(key(window - 1, query));
                Set<String> clients = clientsByQuery.get(query);
                args.add(TitleStore.bytes(Integer.toString(clients.size())));
                clients.forEach(c -> args.add(TitleStore.bytes(c)));
            }
            String[] k = keys.toArray(String[]::new);
            byte[][] v = args.toArray(byte[][]::new);
            scripts.add(redis.onShard(e.getKey(), c -> c.<List<Object>>eval(COUNT, ScriptOutputType.MULTI, k, v), null,
                    ShardedRedis.SCRIPT_BUDGET).thenAccept(result -> {
                        if (result != null) {
                            synchronized (counts) {
                                for (int i = 0; i < queries.size(); i++) {
                                    counts.put(queries.get(i), (Long) result.get(i));
                                }
                            }
                        }
                    }));
        }
        return CompletableFuture.allOf(scripts.toArray(CompletableFuture[]::new)).thenApply(done -> counts);
    }

    static String key(long window, String query) {
        return ROOT + window + ":" + query;
    }
}
