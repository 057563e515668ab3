package dev.hanwiki.autocomplete;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What one node counted since its last flush: for each normalized query, the distinct clients
 * that searched it. Bounded three ways so neither memory nor the flush grows with abuse: at
 * most {@code maxQueries} queries, {@code clientsPerQuery} clients per query (the shared count
 * only needs to pass the threshold), and {@code perClient} distinct queries per client (one
 * client spraying junk fills its own quota, not the node's). A repeated search by the same
 * client adds nothing: popularity is about how many clients, never how many requests.
 */
final class QueryTally {

    enum Outcome { COUNTED, REPEATED, CAPPED }

    private final int maxQueries;
    private final int clientsPerQuery;
    private final int perClient;
    private Map<String, Set<String>> clientsByQuery = new LinkedHashMap<>();
    private Map<String, Integer> queriesByClient = new HashMap<>();

    QueryTally(int maxQueries, int clientsPerQuery, int perClient) {
        this.maxQueries = maxQueries;
        this.clientsPerQuery = clientsPerQuery;
        this.perClient = perClient;
    }

    synchronized Outcome add(String query, String client) {
        Set<String> clients = clientsByQuery.get(query);
        if (clients != null && clients.contains(client)) {
            return Outcome.REPEATED;
        }
        int used = queriesByClient.getOrDefault(client, 0);
        if (used >= perClient || (clients == null && clientsByQuery.size() >= maxQueries)
                || (clients != null && clients.size() >= clientsPerQuery)) {
            return Outcome.CAPPED;
        }
        if (clients == null) {
            clients = new LinkedHashSet<>();
            clientsByQuery.put(query, clients);
        }
        clients.add(client);
        queriesByClient.put(client, used + 1);
        return Outcome.COUNTED;
    }

    /** Everything counted so far, and a fresh start. */
    synchronized Map<String, Set<String>> drain() {
        Map<String, Set<String>> counted = clientsByQuery;
        clientsByQuery = new LinkedHashMap<>();
        queriesByClient = new HashMap<>();
        return counted;
    }
}
