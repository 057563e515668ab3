package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Losing the primary costs writes, never reads: the replica is then the only copy left and
 * answers what the primary would have (ADR 0017's amendment). The case the chaos scenario
 * primary-restart found: right after a change to the lists, list pages are filled from the
 * primary (the replica may lack the change for a moment); with the primary gone those reads
 * failed with 503 DATABASE_UNAVAILABLE instead of being answered from the replica.
 */
class PrimaryOutageIT {

    @Test
    void listPagesFilledRightAfterAChangeAreAnsweredByTheReplicaWhileThePrimaryIsDown() throws Exception {
        long id = Users.shared().createPost("주 DB 장애 " + Users.random(5), "주 DB가 멈춰도 목록은 읽힌다");
        // both nodes have had the change announced (their first page shows it): from now on, for
        // the next 2 s (hanwiki.post-cache.lag-guard), list pages are loaded from the primary
        for (int n = 1; n <= 2; n++) {
            int node = n;
            Eventually.within(java.time.Duration.ofSeconds(10), "node" + node + " lists the new post",
                    () -> Http.get(Stack.node(node) + "/api/v1.0/posts?size=10").body().contains("\"id\":" + id + ","));
        }
        try (var restore = Stack.restoreOnExit("mariadb-primary")) {
            Stack.infra("ctl.sh", "kill", "mariadb-primary");
            List<String> failed = new ArrayList<>();
            int reads = 0;
            for (int size : new int[] {20, 30, 50}) {
                for (int page = 0; page < 2; page++) {
                    for (int n = 1; n <= 2; n++) {
                        String path = "/api/v1.0/posts?size=" + size + "&page=" + page;
                        var r = Http.get(Stack.node(n) + path);
                        reads++;
                        if (r.status() != 200) {
                            failed.add("node" + n + " " + path + ": " + r.status() + " " + r.body());
                        }
                    }
                }
            }
            assertThat(failed).as("list reads of %d with the primary down", reads).isEmpty();
            var first = Http.get(Stack.node(1) + "/api/v1.0/posts?size=20");
            assertThat(first.body()).as("the replica's page has the post written before the outage").contains("\"id\":" + id + ",");
        }
    }
}
