package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A primary that holds a write (here a row lock another session keeps; in the chaos scenario
 * disk-full, MariaDB waiting for space with every commit) must cost that write, not the node.
 * Before the write timeout, such an edit waited until nginx's read timeout (2.5 s) gave up on
 * the node, answered 503 SERVICE_UNAVAILABLE and took the node out of rotation for 5 s, reads
 * included. Now the node answers it itself within the write timeout (1.5 s) with 503
 * WRITE_NOT_CONFIRMED, and once half of its last writes timed out, a breaker refuses writes at
 * once (503 DATABASE_UNAVAILABLE) for a moment instead of letting each wait that long.
 */
class PrimaryHoldsWritesIT {

    private static final Duration UNDER_NGINX_TIMEOUT = Duration.ofMillis(2400);

    @Test
    void aHeldWriteIsAnsweredByTheNodeInTimeThenWritesPauseAndReadsKeepFlowing() throws Exception {
        Users.User user = Users.signUp();
        long id = user.createPost("붙잡힌 쓰기 " + Users.random(5), "다른 세션이 행을 잠그고 있다");
        String post = "/api/v1.0/posts/" + id;
        long version = user.get(Stack.node(1) + post).data().path("version").asLong();
        Map<String, Object> edit = Map.of("title", "고친 제목", "content", "잠긴 행을 고친다", "version", version);

        try (Connection holder = Stack.primary()) {
            holder.setAutoCommit(false);
            try (var lock = holder.createStatement()) {
                lock.executeQuery("SELECT id FROM posts WHERE id = " + id + " FOR UPDATE").close();
            }
            // Through nginx: answered by the node, not timed out by nginx.
            long t0 = System.nanoTime();
            Http.Response viaNginx = user.put(Stack.api() + "/posts/" + id, edit);
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            assertThat(viaNginx.status()).as("a held edit through nginx: %s", viaNginx).isEqualTo(503);
            assertThat(viaNginx.json().path("code").asText()).as("answered by the node: %s", viaNginx).isEqualTo("WRITE_NOT_CONFIRMED");
            assertThat(viaNginx.header("Retry-After")).isNotEmpty();
            assertThat(took).as("answered before nginx's read timeout").isLessThan(UNDER_NGINX_TIMEOUT);

            // At node 1: held edits time out until the breaker opens, then a write is refused at once.
            Http.Response refused = null;
            for (int attempt = 0; attempt < 8 && refused == null; attempt++) {
                t0 = System.nanoTime();
                Http.Response r = user.put(Stack.node(1) + post, edit);
                took = Duration.ofNanos(System.nanoTime() - t0);
                assertThat(r.status()).as("a held edit at node 1: %s", r).isEqualTo(503);
                String code = r.json().path("code").asText();
                if (code.equals("DATABASE_UNAVAILABLE")) {
                    refused = r;
                    assertThat(took).as("a write refused while writes pause").isLessThan(Duration.ofMillis(300));
                } else {
                    assertThat(code).as("%s", r).isEqualTo("WRITE_NOT_CONFIRMED");
                    assertThat(took).as("a held edit at node 1").isLessThan(UNDER_NGINX_TIMEOUT);
                }
            }
            assertThat(refused).as("node 1 paused writes after its writes timed out").isNotNull();
            // Reads go on: the node is neither stuck nor out of rotation.
            assertThat(Http.get(Stack.node(1) + post).status()).isEqualTo(200);
            for (int i = 0; i < 4; i++) {
                assertThat(Http.get(Stack.api() + "/posts/" + id).status()).as("a read through nginx").isEqualTo(200);
            }
            holder.rollback();
        }
        // The lock gone, writes flow again after the pause (one write tries, then all).
        Eventually.within(Duration.ofSeconds(10), Duration.ofMillis(500), "node 1 accepts writes again",
                () -> user.put(Stack.node(1) + post, edit).status() == 200);
    }
}
