package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hanwiki.search.IndexedContent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import tools.jackson.databind.JsonNode;

/** What the integration tests ask of the nodes' search and of the primary. */
final class Search {

    private Search() {
    }

    /** A word no other test or seed data contains, so a search for it finds only our posts. */
    static String uniqueWord() {
        StringBuilder sb = new StringBuilder("hw");
        ThreadLocalRandom r = ThreadLocalRandom.current();
        for (int i = 0; i < 10; i++) {
            sb.append((char) ('a' + r.nextInt(26)));
        }
        return sb.toString().toLowerCase(Locale.ROOT);
    }

    /** Ids of the posts node {@code n} finds for {@code q}, queried directly (not through nginx). */
    static List<Long> idsOn(int n, String q) {
        Http.Response r = Http.get(Stack.node(n) + "/api/v1.0/posts/search?size=100&q=" + Http.enc(q));
        if (r.status() != 200) {
            throw new AssertionError("search on node" + n + " failed: " + r);
        }
        List<Long> ids = new ArrayList<>();
        for (JsonNode hit : r.data().path("results").path("content")) {
            ids.add(hit.path("id").asLong());
        }
        return ids;
    }

    /** Every live document in node {@code n}'s index: id -> version (duplicates fail). */
    static Map<Long, Long> indexOn(int n) {
        Http.Response r = Http.get(Stack.node(n) + "/internal/index/ids");
        if (r.status() != 200) {
            throw new AssertionError("index listing on node" + n + " failed: " + r);
        }
        Map<Long, Long> docs = new TreeMap<>();
        for (JsonNode d : r.data()) {
            Long previous = docs.put(d.path("id").asLong(), d.path("version").asLong());
            if (previous != null) {
                throw new AssertionError("node" + n + " holds post " + d.path("id").asLong() + " twice");
            }
        }
        return docs;
    }

    /** Every live post in the primary: id -> version. */
    static Map<Long, Long> primaryPosts() {
        Map<Long, Long> rows = new TreeMap<>();
        try (var c = Stack.primary(); var st = c.createStatement();
             var rs = st.executeQuery("SELECT id, version FROM posts WHERE deleted_at IS NULL")) {
            while (rs.next()) {
                rows.put(rs.getLong(1), rs.getLong(2));
            }
        } catch (java.sql.SQLException e) {
            throw new AssertionError("cannot read posts from the primary", e);
        }
        return rows;
    }

    /** What an index holds that the primary does not (id=version), or lacks, at most 10 of each; empty when equal. */
    static String differences(Map<Long, Long> index, Map<Long, Long> primary) {
        if (index.equals(primary)) {
            return "";
        }
        List<String> missingOrStale = primary.entrySet().stream().filter(e -> !e.getValue().equals(index.get(e.getKey())))
                .map(e -> e.getKey() + "=" + e.getValue() + " (indexed " + index.get(e.getKey()) + ")").limit(10).toList();
        List<String> extra = index.entrySet().stream().filter(e -> !primary.containsKey(e.getKey()))
                .map(e -> e.getKey() + "=" + e.getValue()).limit(10).toList();
        return "missing or stale " + missingOrStale + ", not live in the primary " + extra;
    }

    /** Creates a post as the shared test user. */
    static long create(String title, String content) {
        return Users.shared().createPost(title, content);
    }

    /** Content digests ({@code IndexedContent.digest}) of the live posts of {@code ids} in the primary. */
    static Map<Long, String> primaryDigests(List<Long> ids) {
        Map<Long, String> digests = new TreeMap<>();
        for (List<Long> chunk : chunks(ids)) {
            String in = String.join(",", chunk.stream().map(String::valueOf).toList());
            try (var c = Stack.primary(); var st = c.createStatement(); var rs = st.executeQuery(
                    "SELECT id, title, content, category_id FROM posts WHERE deleted_at IS NULL AND id IN (" + in + ")")) {
                while (rs.next()) {
                    long read = rs.getLong(4);
                    Long category = rs.wasNull() ? null : read; // before any other column is read
                    digests.put(rs.getLong(1), IndexedContent.digest(rs.getString(2), rs.getString(3), category));
                }
            } catch (java.sql.SQLException e) {
                throw new AssertionError("cannot read posts from the primary", e);
            }
        }
        return digests;
    }

    /** The same digests as node {@code n}'s search shows them (posts it does not hold are left out). */
    static Map<Long, String> digestsOn(int n, List<Long> ids) {
        Map<Long, String> digests = new TreeMap<>();
        for (List<Long> chunk : chunks(ids)) {
            String in = String.join(",", chunk.stream().map(String::valueOf).toList());
            Http.Response r = Http.get(Stack.node(n) + "/internal/index/digests?ids=" + in);
            if (r.status() != 200) {
                throw new AssertionError("digests on node" + n + " failed: " + r);
            }
            r.data().properties().forEach(e -> digests.put(Long.parseLong(e.getKey()), e.getValue().asString()));
        }
        return digests;
    }

    private static List<List<Long>> chunks(List<Long> ids) {
        List<List<Long>> chunks = new ArrayList<>();
        for (int i = 0; i < ids.size(); i += 500) {
            chunks.add(ids.subList(i, Math.min(ids.size(), i + 500)));
        }
        return chunks;
    }

    /**
     * Every acknowledged write is in the primary, and each node's index equals the primary's
     * live posts (ids and versions) within {@code within}: none missing, stale or twice; and
     * for the acknowledged posts the indexed title, content and category are the primary's
     * (content digests), so a right version with the wrong text does not pass.
     */
    static void assertEveryNodeConverges(List<Long> acknowledged, java.time.Duration within) {
        var expected = primaryPosts();
        if (!expected.keySet().containsAll(acknowledged)) {
            throw new AssertionError("an acknowledged write is not in the primary");
        }
        for (int n = 1; n <= 2; n++) {
            int node = n;
            // The primary is read again on every look: a write a drill left in flight (a node cut
            // off mid-transaction) may still commit after the drill's writer has finished, and
            // then the index is right to hold it.
            String[] last = {""};
            try {
                Eventually.within(within, java.time.Duration.ofMillis(250), "node" + node + " equal to the primary", () -> {
                    last[0] = differences(indexOn(node), primaryPosts());
                    return last[0].isEmpty();
                });
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "; last difference: " + last[0], e);
            }
        }
        List<Long> live = acknowledged.stream().filter(expected::containsKey).distinct().toList();
        Map<Long, String> digests = primaryDigests(live);
        for (int n = 1; n <= 2; n++) {
            assertThat(digestsOn(n, live)).as("node%d: content of the acknowledged posts (digests) equal to the primary's", n)
                    .isEqualTo(digests);
        }
    }
}
