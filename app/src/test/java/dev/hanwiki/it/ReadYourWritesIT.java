package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Right after a user writes, that user's reads show the new version on either node, even when
 * the replica is behind: each write hands the client its commit position, and a read carrying
 * it is served by the replica only once the replica has applied it.
 */
class ReadYourWritesIT {

    @Test
    void aWriterSeesItsEditsOnTheOtherNodeEvenWhileTheReplicaLags() {
        Users.User writer = Users.signUp();
        long id = writer.createPost("내 글 " + Users.random(5), "버전 1");
        Replica.awaitPost(id);
        Replica.awaitReadsFrom("replica", Duration.ofSeconds(10));

        Stack.infra("ctl.sh", "pause", "mariadb-replica");
        try {
            var edit = writer.put(Stack.node(1) + "/api/v1.0/posts/" + id, Map.of("title", "내 글", "content", "버전 2", "version", 1));
            assertThat(edit.status()).as(edit.toString()).isEqualTo(200);

            var mine = writer.get(Stack.node(2) + "/api/v1.0/posts/" + id);
            var someoneElse = Http.get(Stack.node(2) + "/api/v1.0/posts/" + id);

            assertThat(mine.data().path("version").asLong()).isEqualTo(2);
            assertThat(mine.data().path("content").asString()).isEqualTo("버전 2");
            // The lag is real: a reader without the position still gets the replica's older row.
            assertThat(someoneElse.data().path("version").asLong()).isEqualTo(1);
            assertThat(writer.get(Stack.node(2) + "/api/v1.0/posts/" + id + "/revisions").data().path("content").get(0)
                    .path("version").asLong()).isEqualTo(2);
        } finally {
            Stack.infra("ctl.sh", "resume", "mariadb-replica");
        }
    }

    @Test
    void everyEditIsVisibleToItsWriterOnTheOtherNodeAtOnce() {
        Users.User writer = Users.signUp();
        long id = writer.createPost("연속 편집 " + Users.random(5), "0");
        for (int version = 1; version <= 30; version++) {
            int writeNode = 1 + version % 2;
            int readNode = 3 - writeNode;
            var edit = writer.put(Stack.node(writeNode) + "/api/v1.0/posts/" + id,
                    Map.of("title", "연속 편집", "content", Integer.toString(version), "version", version));
            assertThat(edit.status()).as(edit.toString()).isEqualTo(200);
            var read = writer.get(Stack.node(readNode) + "/api/v1.0/posts/" + id);
            assertThat(read.data().path("version").asLong()).as("read on node" + readNode).isEqualTo(version + 1);
        }
    }

    @Test
    void theWritePositionTravelsAsAnHttpOnlyCookieToo() {
        Users.User writer = Users.signUp();
        var created = writer.post(Stack.api() + "/posts", Map.of("title", "쿠키 " + Users.random(5), "content", "c"));

        String cookie = created.headers("Set-Cookie").stream().filter(c -> c.startsWith("hw_sync=")).findFirst().orElseThrow();
        assertThat(cookie).contains("HttpOnly", "SameSite=Lax");
        var read = Http.call("GET", Stack.node(2) + "/api/v1.0/posts/" + created.data().path("id").asLong())
                .header("Cookie", "hw_sync=" + created.cookie("hw_sync")).send();
        assertThat(read.status()).isEqualTo(200);
    }
}
