package dev.hanwiki.it;

import java.time.Duration;

/** The replica as the tests see it: where each node sends its reads, and whether a row arrived. */
final class Replica {

    private Replica() {
    }

    /** "replica" or "primary", as node {@code n} decides right now. */
    static String readsFrom(int n) {
        return Http.get(Stack.node(n) + "/internal/db/routing").data().path("readsFrom").asString();
    }

    static String state(int n) {
        return Http.get(Stack.node(n) + "/internal/db/routing").data().path("state").asString();
    }

    static void awaitReadsFrom(String target, Duration within) {
        Eventually.within(within, "both nodes read from the " + target,
                () -> readsFrom(1).equals(target) && readsFrom(2).equals(target));
    }

    /** Waits until the replica holds the post, without reading through the API. */
    static void awaitPost(long id) {
        Eventually.within(Duration.ofSeconds(10), "post " + id + " on the replica", () -> {
            try (var c = Stack.replica(); var ps = c.prepareStatement("SELECT COUNT(*) FROM posts WHERE id = ?")) {
                ps.setLong(1, id);
                try (var rs = ps.executeQuery()) {
                    return rs.next() && rs.getLong(1) == 1;
                }
            } catch (java.sql.SQLException e) {
                throw new AssertionError(e);
            }
        });
    }
}
