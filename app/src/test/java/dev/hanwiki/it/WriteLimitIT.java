package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Writes per user are limited across both nodes (ADR 0086): the buckets are in the auth Redis,
 * so alternating nodes does not double the allowance. The client address is named with
 * X-Real-IP on the nodes' own ports (127.0.0.1, the test runner, is a trusted load generator
 * in the test stack and exempt).
 */
class WriteLimitIT {

    private static final String ADDRESS = "198.51.100.77";

    @Test
    void likesPastTheBurstAreRefusedWith429AndRetryAfterOnEitherNode() {
        Users.User author = Users.signUp();
        long id = author.createPost("한도 " + Users.random(6), "좋아요 한도");
        Users.User liker = Users.signUp();
        List<Integer> statuses = new ArrayList<>();
        Http.Response refused = null;
        for (int i = 0; i < 400 && refused == null; i++) {
            String method = i % 2 == 0 ? "POST" : "DELETE";
            Http.Response r = Http.call(method, Stack.node(1 + i % 2) + "/api/v1.0/posts/" + id + "/like")
                    .header("Authorization", "Bearer " + liker.token).header("X-Real-IP", ADDRESS)
                    .header("X-Requested-With", "it").send();
            statuses.add(r.status());
            if (r.status() == 429) {
                refused = r;
            }
        }
        // The bucket refills one a second while the loop runs, so the refusal comes a little after 100.
        assertThat(refused).as("a like past the burst of 100").isNotNull();
        assertThat(statuses.subList(0, 100)).as("the burst, split over both nodes").containsOnly(200);
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(refused.json().path("code").asString()).isEqualTo("WRITE_RATE_LIMITED");
        assertThat(Integer.parseInt(refused.header("Retry-After"))).isBetween(1, 1);
        // Another user is not affected, and neither are reads.
        Http.Response other = Http.call("POST", Stack.node(1) + "/api/v1.0/posts/" + id + "/like")
                .header("Authorization", "Bearer " + author.token).header("X-Real-IP", ADDRESS)
                .header("X-Requested-With", "it").send();
        assertThat(other.status()).isEqualTo(200);
        assertThat(Http.get(Stack.node(1) + "/api/v1.0/posts/" + id).status()).isEqualTo(200);
    }

    @Test
    void newPagesPastTheBurstAreRefused() {
        Users.User writer = Users.signUp();
        int created = 0;
        Http.Response last = null;
        for (int i = 0; i < 31; i++) {
            last = Http.call("POST", Stack.node(2) + "/api/v1.0/posts").header("Authorization", "Bearer " + writer.token)
                    .header("X-Real-IP", ADDRESS).json(Map.of("title", "한도 글 " + i + " " + Users.random(4), "content", "내용"))
                    .send();
            if (last.status() == 201) {
                created++;
            }
        }
        assertThat(created).isEqualTo(30);
        assertThat(last.status()).isEqualTo(429);
        assertThat(last.json().path("code").asString()).isEqualTo("WRITE_RATE_LIMITED");
        assertThat(Integer.parseInt(last.header("Retry-After"))).isBetween(1, 60);
    }
}
