package dev.hanwiki.it;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

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

    /** The version of post {@code id} the replica holds (-1 when it has no such row). */
    static long versionOf(long id) {
        try (var c = Stack.replica(); var ps = c.prepareStatement("SELECT version FROM posts WHERE id = ?")) {
            ps.setLong(1, id);
            try (var rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Overwrites the replica's copy of a post's title, content and version behind replication's
     * back (root on the replica's own socket, {@code sql_log_bin=0}: no GTID of the replica's
     * own, so the replica monitor still finds it healthy and caught up). This is how a test gets
     * a replica row older than what the change stream announced while reads stay on the replica.
     * Undo it with the primary's values before anything writes that post again.
     */
    static void overwriteRow(long id, String title, String content, long version) {
        String sql = "SET SESSION sql_log_bin = 0; UPDATE posts SET title = " + literal(title) + ", content = "
                + literal(content) + ", version = " + version + " WHERE id = " + id;
        Path socket = Path.of(Stack.get("VAR"), "mariadb", "replica", "mysqld.sock");
        Stack.Run run = Stack.run(List.of("mariadb", "--no-defaults", "-uroot", "--socket=" + socket, "-N", "-B",
                Stack.get("MARIADB_DATABASE"), "-e", sql));
        if (run.exitCode() != 0) {
            throw new AssertionError("cannot overwrite post " + id + " on the replica: " + run.output());
        }
    }

    private static String literal(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
