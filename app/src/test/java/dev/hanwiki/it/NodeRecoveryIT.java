package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A node killed with SIGKILL keeps only what its last Lucene commit holds, and that commit
 * names the Kafka offsets it reflects. Restarted, it must resume from there and converge
 * to exactly the primary's posts: none missing, none twice, every version current.
 */
class NodeRecoveryIT {

    @Test
    void nodeKilledUnderWritesResumesFromItsCommittedOffsetsAndConverges() throws Exception {
        Stack.awaitNginxRoutesToBothNodes(); // the other test may have just brought node1 back
        String word = Search.uniqueWord();
        BackgroundWriter writer = new BackgroundWriter(word, 50);
        try (var restore = Stack.restoreOnExit("node2"); writer) {
            writer.awaitMore(20, Duration.ofSeconds(10));
            Stack.infra("ctl.sh", "kill", "node2");
            writer.awaitMore(40, Duration.ofSeconds(20));
            Stack.infra("ctl.sh", "start", "node2");
            writer.awaitMore(20, Duration.ofSeconds(10));
        }
        // Only a request in flight on node2 at the moment of the kill may fail (nginx never
        // resends a POST the node may have acted on).
        assertThat(writer.refused()).as("writes refused around the crash").isLessThanOrEqualTo(2);
        Search.assertEveryNodeConverges(writer.acknowledged(), Duration.ofSeconds(10));
        for (int n = 1; n <= 2; n++) {
            assertThat(Search.idsOn(n, word)).hasSize(Math.min(100, writer.acknowledgedCount())).doesNotHaveDuplicates();
        }
    }

    @Test
    void nodeRebuiltFromNothingWhileWritesContinueEndsEqualToThePrimaryWithNoWriteRefused() throws Exception {
        Stack.awaitNginxRoutesToBothNodes(); // the other test may have just brought node2 back
        BackgroundWriter writer = new BackgroundWriter(Search.uniqueWord(), 30);
        try (var restore = Stack.restoreOnExit("node1"); writer) {
            writer.awaitMore(10, Duration.ofSeconds(10));
            // stop, delete the index, start: the node replays the compacted topic, then follows it
            // (every post of the corpus: its budget grows with it; ctl.sh waits while it progresses)
            Stack.infra(Budgets.reindex().plusMinutes(2), "ctl.sh", "rebuild", "node1");
            writer.awaitMore(20, Duration.ofSeconds(10));
        }
        // ctl.sh drains node1 out of nginx before it stops (and puts it back once it is ready):
        // no write is sent to the stopping node, so none is answered with an error. The two nginx
        // reloads (out, back in) close idle client keep-alive connections; a request written on
        // one at that instant gets no answer at all (ADR 0041): at most one per reload.
        assertThat(writer.refused() - writer.unanswered()).as("writes answered with an error while node1 was "
                + "drained, stopped and rebuilt; last refusal: " + writer.lastRefusal()).isZero();
        assertThat(writer.unanswered()).as("writes whose connection an nginx reload closed; last refusal: "
                + writer.lastRefusal()).isLessThanOrEqualTo(2);
        Search.assertEveryNodeConverges(writer.acknowledged(), Duration.ofSeconds(20));
    }
}
