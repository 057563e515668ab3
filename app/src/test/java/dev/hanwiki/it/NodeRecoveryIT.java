package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A node killed with SIGKILL keeps only what its last Lucene commit holds, and that commit
 * names the Kafka offsets it reflects. Restarted, it must resume from there and converge
 * to exactly the primary's posts: none missing, none twice, every version current.
 */
class NodeRecoveryIT {

    @Test
    void nodeKilledUnderWritesResumesFromItsCommittedOffsetsAndConverges() throws Exception {
        String word = Search.uniqueWord();
        List<Long> written = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger unacknowledged = new AtomicInteger();
        Users.User author = Users.shared();
        Thread writer = Thread.ofPlatform().name("it-writer").start(() -> {
            for (int i = 0; writing.get(); i++) {
                var r = author.post(Stack.api() + "/posts",
                        Map.of("title", "복구 시험 " + i + " " + word, "content", "노드가 죽어도 잃지 않는다 " + word + " " + i));
                if (r.status() == 201) {
                    written.add(r.data().path("id").asLong());
                } else {
                    // Only a request in flight on node2 at the moment of the kill may fail
                    // (nginx never resends a POST the node may have acted on).
                    unacknowledged.incrementAndGet();
                }
                sleep(20);
            }
        });
        try {
            Eventually.within(Duration.ofSeconds(10), "some writes before the crash", () -> written.size() >= 20);
            Stack.infra("node.sh", "kill", "2");
            Eventually.within(Duration.ofSeconds(20), "writes while node2 is down", () -> written.size() >= 60);
            Stack.infra("node.sh", "start", "2");
            Eventually.within(Duration.ofSeconds(10), "writes after node2 is back", () -> written.size() >= 80);
        } finally {
            writing.set(false);
            writer.join(10_000);
        }

        assertThat(unacknowledged.get()).as("writes refused around the crash").isLessThanOrEqualTo(2);
        var expected = Search.primaryPosts();
        assertThat(expected.keySet()).containsAll(written);
        for (int n = 1; n <= 2; n++) {
            int node = n;
            Eventually.within(Duration.ofSeconds(10), "node" + node + " equal to the primary",
                    () -> Search.indexOn(node).equals(expected));
            assertThat(Search.idsOn(node, word)).hasSize(Math.min(100, written.size())).doesNotHaveDuplicates();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
