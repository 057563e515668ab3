package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Losing the replica costs capacity, never answers: reads move to the primary when the replica
 * is killed or lags beyond the bound, and move back once it has recovered.
 */
class ReplicaFailoverIT {

    private static final String[] READS = {"/posts/{id}", "/posts?size=5", "/categories", "/posts/{id}/revisions",
            "/posts/{id}/revisions/1", "/posts/search?q=" + Http.enc("장애")};

    private static void assertReadsAnswer(long id) {
        for (String path : READS) {
            var r = Http.get(Stack.api() + path.replace("{id}", Long.toString(id)));
            assertThat(r.status()).as(path + " " + r).isEqualTo(200);
        }
    }

    @Test
    void readsKeepAnsweringWhileTheReplicaIsKilledAndReturnToItOnceItIsBack() {
        long id = Users.shared().createPost("복제 장애 " + Users.random(5), "복제본이 죽어도 읽힌다");
        Replica.awaitPost(id);
        Replica.awaitReadsFrom("replica", Duration.ofSeconds(10));

        Stack.infra("ctl.sh", "kill", "mariadb-replica");
        try {
            // The first reads find the replica gone on their own; none of them may fail.
            for (int round = 0; round < 10; round++) {
                assertReadsAnswer(id);
            }
            Replica.awaitReadsFrom("primary", Duration.ofSeconds(5));
            assertThat(Replica.state(1)).isEqualTo("UNREACHABLE");
            long written = Users.shared().createPost("복제본 없이 쓴 글 " + Users.random(5), "주 DB에만 있다");
            var anonymous = Http.get(Stack.api() + "/posts/" + written);
            assertThat(anonymous.status()).as("a write made while the replica is down is readable by anyone").isEqualTo(200);
        } finally {
            Stack.infra("ctl.sh", "start", "mariadb-replica");
        }
        Replica.awaitReadsFrom("replica", Duration.ofSeconds(15));
        assertReadsAnswer(id);
    }

    @Test
    void readsMoveToThePrimaryWhileTheReplicaLagsBeyondTheBound() {
        Replica.awaitReadsFrom("replica", Duration.ofSeconds(10));
        Stack.infra("ctl.sh", "pause", "mariadb-replica");
        try {
            long id = Users.shared().createPost("지연 " + Users.random(5), "복제가 늦으면 주 DB에서 읽는다");
            Eventually.within(Duration.ofSeconds(5), "both nodes see the lag",
                    () -> Replica.state(1).equals("LAGGING") && Replica.state(2).equals("LAGGING"));
            assertThat(Replica.readsFrom(1)).isEqualTo("primary");
            for (int n = 1; n <= 2; n++) {
                var r = Http.get(Stack.node(n) + "/api/v1.0/posts/" + id);
                assertThat(r.status()).as("node" + n + " answers a post the replica has not applied yet").isEqualTo(200);
            }
        } finally {
            Stack.infra("ctl.sh", "resume", "mariadb-replica");
        }
        Replica.awaitReadsFrom("replica", Duration.ofSeconds(10));
    }
}
