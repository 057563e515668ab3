package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code make backup} then {@code make restore UNTIL=...} (infra/backup.sh, ADR 0054): every
 * acknowledged write up to the recovery point is back in the primary and the replica with its
 * version and content, nothing after it is, and both nodes' indexes converge on the restored
 * database (verify-index: 0 differences) through a new snapshot of the change stream.
 */
class BackupRestoreIT {

    private static final DateTimeFormatter UNTIL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    @Test
    void restoreToAPointInTimeBringsBackEveryAcknowledgedWriteBeforeItAndNothingAfter() throws Exception {
        Users.User author = Users.signUp();
        String word = "복원" + Users.random(6);
        // Acknowledged before the base backup, then after it (only in the binlog archive), then
        // after the recovery point.
        Map<Long, String> beforeBackup = write(author, word, "before the base backup", 3);
        Stack.infra("backup.sh", "full");
        Map<Long, String> inArchive = write(author, word, "only in the archived binlog", 3);
        long edited = beforeBackup.keySet().iterator().next();
        var edit = author.put(Stack.api() + "/posts/" + edited, Map.of("title", word + " edited", "content", "edited after the backup",
                "version", 1));
        assertThat(edit.status()).as(edit.toString()).isEqualTo(200);
        beforeBackup.put(edited, "edited after the backup");
        Stack.infra("backup.sh", "wait-archived", "60");

        // The recovery point: a whole second after the last write we keep, before the first we drop.
        Thread.sleep(1_100);
        String until = LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS).format(UNTIL);
        Thread.sleep(1_100);
        Map<Long, String> afterPoint = write(author, word, "after the recovery point", 2);
        Stack.infra("backup.sh", "wait-archived", "60");

        // Copies the base twice, snapshots every post again and both nodes re-index them all.
        String out = Stack.infra(Budgets.reindex().plusMinutes(10), "backup.sh", "restore", "--until", until);
        assertThat(out).contains("recovery point GTID");

        Map<Long, String> kept = new LinkedHashMap<>(beforeBackup);
        kept.putAll(inArchive);
        try (Connection primary = Stack.primary(); Connection replica = Stack.replica()) {
            for (var e : kept.entrySet()) {
                long expectedVersion = e.getKey() == edited ? 2 : 1;
                assertThat(row(primary, e.getKey())).as("primary, post " + e.getKey()).isEqualTo(List.of(e.getValue(), expectedVersion));
                assertThat(row(replica, e.getKey())).as("replica, post " + e.getKey()).isEqualTo(List.of(e.getValue(), expectedVersion));
            }
            for (long id : afterPoint.keySet()) {
                assertThat(row(primary, id)).as("primary, post " + id + " written after the recovery point").isEmpty();
                assertThat(row(replica, id)).as("replica, post " + id + " written after the recovery point").isEmpty();
            }
        }
        Stack.Run verify = Stack.verifyIndex((int) Budgets.reindex().toSeconds());
        assertThat(verify.exitCode()).as(verify.output()).isZero();
        for (int node = 1; node <= 2; node++) {
            String base = Stack.node(node) + "/api/v1.0";
            for (long id : inArchive.keySet()) {
                assertThat(Http.get(base + "/posts/" + id).status()).as("node" + node + " post " + id).isEqualTo(200);
            }
            for (long id : afterPoint.keySet()) {
                assertThat(Http.get(base + "/posts/" + id).status()).as("node" + node + " post " + id).isEqualTo(404);
            }
        }
        // The stack goes on: a new write after the restore is acknowledged and indexed everywhere.
        write(author.signedInAgain(), word, "after the restore", 1); // the restore may outlive the token
        Stack.Run after = Stack.verifyIndex(60);
        assertThat(after.exitCode()).as(after.output()).isZero();
    }

    private static Map<Long, String> write(Users.User author, String word, String content, int n) {
        Map<Long, String> ids = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String body = content + " " + i;
            var r = author.post(Stack.api() + "/posts", Map.of("title", word + " " + Users.random(4), "content", body));
            assertThat(r.status()).as(r.toString()).isEqualTo(201);
            ids.put(r.data().path("id").asLong(), body);
        }
        return ids;
    }

    /** [content, version] of a live post, or empty. */
    private static List<Object> row(Connection c, long id) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT content, version FROM posts WHERE id = ? AND deleted_at IS NULL")) {
            st.setLong(1, id);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? List.of(rs.getString(1), rs.getLong(2)) : List.of();
            }
        }
    }
}
