package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;

/**
 * {@code kill -9} of a node inside a Lucene commit, not at a random moment. IndexWriter.commit()
 * writes and fsyncs {@code pending_segments_G}, fsyncs every file of the commit, and only then
 * renames it to {@code segments_G}; {@code infra/ctl.sh kill-in-commit} watches the node's index
 * directory and SIGKILLs the node the moment that file shows. When the file is still there
 * after the process died, the kill cut the commit before its rename (a "hit"): the index on
 * disk must then be commit G-1, whose user data names older Kafka offsets, and the restarted
 * node must replay from there to exactly the primary's posts. Each node is killed once this way
 * (writes keep flowing through nginx throughout); how many kills hit the window is logged, and
 * at least one must have, or the test proves nothing and fails. (Measured while writing this
 * test: every attempt hit, the commit's fsyncs being far longer than the watch's poll; ADR 0042.)
 */
class NodeKilledInCommitIT {

    @Test
    void nodeKilledInsideALuceneCommitRestartsFromThePreviousCommitAndConverges() throws Exception {
        Stack.awaitNginxRoutesToBothNodes(); // another test may have just brought a node back
        List<String> hits = new ArrayList<>();
        BackgroundWriter writer = new BackgroundWriter(Search.uniqueWord(), 30);
        try (var restore = Stack.restoreOnExit("node1", "node2"); writer) {
            for (int node : new int[] {2, 1}) {
                writer.awaitMore(20, Duration.ofSeconds(15));
                String outcome = Stack.infra("ctl.sh", "kill-in-commit", "node" + node).strip();
                String last = outcome.lines().reduce((a, b) -> b).orElse("");
                System.out.printf("node%d killed during a commit: %s%n", node, last);
                assertThat(last).as("ctl.sh kill-in-commit output").matches("(hit|missed) pending_segments_[0-9a-z]+");
                if (last.startsWith("hit")) {
                    assertCommitWasCut(node, last.substring("hit ".length()));
                    hits.add("node" + node + " " + last.substring(4));
                }
                writer.awaitMore(20, Duration.ofSeconds(15)); // writes go on through the other node
                Stack.infra("ctl.sh", "start", "node" + node);
                Stack.awaitNginxRoutesToBothNodes();
            }
            writer.awaitMore(20, Duration.ofSeconds(15));
        }
        System.out.printf("kills that cut a commit before its rename: %d of 2 %s%n", hits.size(), hits);
        assertThat(hits).as("kills that landed inside a commit (the window was never hit: the test proved nothing)").isNotEmpty();
        // Only a write in flight on the node at the moment of its kill may fail (nginx never
        // resends a POST the node may have acted on); it was never acknowledged.
        assertThat(writer.refused()).as("writes refused around the two kills; last: " + writer.lastRefusal())
                .isLessThanOrEqualTo(4);
        Search.assertEveryNodeConverges(writer.acknowledged(), Duration.ofSeconds(30));
        Stack.Run verify = Stack.verifyIndex(10);
        System.out.printf("make verify-index after the kills:%n%s", verify.output());
        assertThat(verify.exitCode()).as("verify-index:\n" + verify.output()).isZero();
        assertThat(verify.output()).contains("index and database agree");
    }

    /**
     * The kill left commit G half done: its pending file is on disk, and the latest complete
     * commit, the one a restart opens, is an earlier one (usually G-1; generations are named in
     * base 36 and never reused, so after an earlier cut commit the writer may have skipped one).
     * Read with the node dead, so nothing changes underneath.
     */
    private static void assertCommitWasCut(int node, String pendingFile) throws Exception {
        Path index = Path.of(Stack.get("VAR"), "node" + node, "index");
        assertThat(index.resolve(pendingFile)).exists();
        long cut = Long.parseLong(pendingFile.substring("pending_segments_".length()), Character.MAX_RADIX);
        try (Directory dir = FSDirectory.open(index)) {
            SegmentInfos latest = SegmentInfos.readLatestCommit(dir);
            assertThat(latest.getGeneration()).as("the commit a restart of node" + node + " opens").isLessThan(cut);
            assertThat(latest.getUserData()).as("offsets recorded in commit " + latest.getGeneration())
                    .containsKey("kafka." + Stack.get("CDC_POSTS_TOPIC") + ".0");
        }
        assertThat(Files.exists(index.resolve("segments_" + Long.toString(cut, Character.MAX_RADIX)))).isFalse();
    }
}
