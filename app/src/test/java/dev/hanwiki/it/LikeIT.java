package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** One like per user and post, a count that matches the like rows exactly, even under concurrency. */
class LikeIT {

    @Test
    void likeAndUnlikeAnswerTheCountAndWhetherTheCallerLikes() {
        Users.User author = Users.signUp();
        Users.User fan = Users.signUp();
        long id = author.createPost("좋아요 " + Users.random(5), "내용");
        String like = Stack.api() + "/posts/" + id + "/like";

        var liked = fan.post(like, Map.of());
        assertThat(liked.status()).isEqualTo(200);
        assertThat(liked.data().path("likeCount").asLong()).isEqualTo(1);
        assertThat(liked.data().path("liked").asBoolean()).isTrue();
        var again = fan.post(like, Map.of());
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().path("code").asString()).isEqualTo("ALREADY_LIKED");

        assertThat(fan.get(Stack.api() + "/posts/" + id).data().path("liked").asBoolean()).isTrue();
        assertThat(author.get(Stack.api() + "/posts/" + id).data().path("liked").asBoolean()).isFalse();
        assertThat(fan.get(Stack.api() + "/posts/" + id).data().path("likeCount").asLong()).isEqualTo(1);

        var unliked = fan.delete(like);
        assertThat(unliked.status()).isEqualTo(200);
        assertThat(unliked.data().path("likeCount").asLong()).isZero();
        assertThat(unliked.data().path("liked").asBoolean()).isFalse();
        var notLiked = fan.delete(like);
        assertThat(notLiked.status()).isEqualTo(404);
        assertThat(notLiked.json().path("code").asString()).isEqualTo("NOT_LIKED");
    }

    @Test
    void likingAMissingOrDeletedPostIsNotFoundAndLikingNeedsAUser() {
        Users.User author = Users.signUp();
        long id = author.createPost("곧 지움 " + Users.random(5), "내용");
        assertThat(author.delete(Stack.api() + "/posts/" + id).status()).isEqualTo(204);

        var deleted = author.post(Stack.api() + "/posts/" + id + "/like", Map.of());
        var missing = author.delete(Stack.api() + "/posts/999999999/like");
        var anonymous = Http.post(Stack.api() + "/posts/" + id + "/like", Map.of());

        assertThat(deleted.status()).isEqualTo(404);
        assertThat(deleted.json().path("code").asString()).isEqualTo("POST_NOT_FOUND");
        assertThat(missing.json().path("code").asString()).isEqualTo("POST_NOT_FOUND");
        assertThat(anonymous.status()).isEqualTo(401);
    }

    @Test
    void theCountNeverDriftsUnderConcurrentLikes() throws Exception {
        Users.User author = Users.signUp();
        long id = author.createPost("동시 좋아요 " + Users.random(5), "내용");
        int fans = 24;
        List<Users.User> users = new ArrayList<>();
        for (int i = 0; i < fans; i++) {
            users.add(Users.signUp());
        }
        String like = Stack.api() + "/posts/" + id + "/like";
        ExecutorService pool = Executors.newFixedThreadPool(12);
        try {
            // Every fan likes at once through nginx (both nodes), one fan tries eight times in parallel.
            List<Callable<Integer>> calls = new ArrayList<>();
            users.forEach(u -> calls.add(() -> u.post(like, Map.of()).status()));
            Users.User eager = users.get(0);
            for (int i = 0; i < 8; i++) {
                calls.add(() -> eager.post(like, Map.of()).status());
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> f : pool.invokeAll(calls)) {
                statuses.add(f.get());
            }
            assertThat(statuses).filteredOn(s -> s == 200).hasSize(fans);
            assertThat(statuses).filteredOn(s -> s == 409).hasSize(8);
            assertThat(likeCountAndRows(id)).containsExactly((long) fans, (long) fans);

            // Half of them take it back, concurrently, while the others like again (409).
            calls.clear();
            for (int i = 0; i < fans; i++) {
                Users.User u = users.get(i);
                calls.add(i % 2 == 0 ? () -> u.delete(like).status() : () -> u.post(like, Map.of()).status());
            }
            statuses.clear();
            for (Future<Integer> f : pool.invokeAll(calls)) {
                statuses.add(f.get());
            }
            assertThat(statuses).filteredOn(s -> s == 200).hasSize(fans / 2);
            assertThat(likeCountAndRows(id)).containsExactly((long) fans / 2, (long) fans / 2);
        } finally {
            pool.shutdownNow();
        }
    }

    /** [post_counters.like_count, rows in post_likes] in the primary. */
    private static List<Long> likeCountAndRows(long postId) throws Exception {
        try (var c = Stack.primary(); var ps = c.prepareStatement(
                "SELECT c.like_count, (SELECT COUNT(*) FROM post_likes l WHERE l.post_id = c.post_id) FROM post_counters c WHERE c.post_id = ?")) {
            ps.setLong(1, postId);
            try (var rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return List.of(rs.getLong(1), rs.getLong(2));
            }
        }
    }
}
