package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code make verify-index} (infra/verify_index.py) catches an index entry whose version is
 * right but whose text is not. The test makes one: it changes a post's content on the primary
 * as root with {@code sql_log_bin = 0}, so no change event reaches the nodes and the version
 * stays; the nodes' indexes then hold the old text at the database's version. Versions alone
 * see nothing ({@code --versions-only} passes); the content digests must not. The row is put
 * back in {@code finally}, the same way.
 */
class VerifyIndexIT {

    @Test
    void aStaleContentEntryIsFoundAlthoughItsVersionMatches() {
        String content = "검증용 본문 " + UUID.randomUUID();
        long id = Users.shared().createPost("내용 검사 " + UUID.randomUUID(), content);
        Stack.Run before = Stack.verifyIndex(60);
        assertThat(before.exitCode()).as("the stack agrees before the test:\n" + before.output()).isZero();

        try {
            setContentUnlogged(id, content + " (고쳐짐)");

            Stack.Run versionsOnly = Stack.run(List.of("python3", Stack.ROOT.resolve("infra/verify_index.py").toString(),
                    "--versions-only"));
            Stack.Run full = Stack.verifyIndex(0);

            assertThat(versionsOnly.exitCode()).as("versions cannot see it:\n" + versionsOnly.output()).isZero();
            assertThat(full.exitCode()).as(full.output()).isEqualTo(1);
            assertThat(full.output()).containsPattern("(?m)^node1 +\\d+ +0 +0 +0 +1 +0$")
                    .containsPattern("(?m)^node2 +\\d+ +0 +0 +0 +1 +0$")
                    .contains("DIFFERENCES FOUND");
        } finally {
            setContentUnlogged(id, content);
        }

        Stack.Run after = Stack.verifyIndex(0);
        assertThat(after.exitCode()).as("agrees again once the row is put back:\n" + after.output()).isZero();
    }

    /** Root over the primary's socket, outside the binlog: no event, no new version. */
    private static void setContentUnlogged(long id, String content) {
        String sql = "SET SESSION sql_log_bin = 0; UPDATE posts SET content = '"
                + content.replace("\\", "\\\\").replace("'", "''") + "' WHERE id = " + id;
        Path socket = Path.of(Stack.get("VAR"), "mariadb", "primary", "mysqld.sock");
        Stack.Run run = Stack.run(List.of("mariadb", "--no-defaults", "-uroot", "--socket=" + socket, "-N", "-B",
                Stack.get("MARIADB_DATABASE"), "-e", sql));
        assertThat(run.exitCode()).as("cannot change post " + id + " on the primary: " + run.output()).isZero();
    }
}
