package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A post's life through nginx: created by a signed-in author, edited with version checks,
 * refused to others, listed newest first, its history and diffs, and deleted (hidden from
 * reads and search, history kept in the database).
 */
class PostLifecycleIT {

    private static final Duration FRESH = Duration.ofSeconds(5);

    private static Map<String, Object> body(String title, String content, Object categoryId, Object version) {
        Map<String, Object> body = new HashMap<>();
        body.put("title", title);
        body.put("content", content);
        if (categoryId != null) {
            body.put("categoryId", categoryId);
        }
        if (version != null) {
            body.put("version", version);
        }
        return body;
    }

    @Test
    void writesNeedAValidToken() {
        var anonymous = Http.post(Stack.api() + "/posts", body("t", "c", null, null));
        var garbage = Http.call("POST", Stack.api() + "/posts").header("Authorization", "Bearer x.y.z").json(body("t", "c", null, null)).send();

        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.json().path("code").asString()).isEqualTo("AUTHENTICATION_REQUIRED");
        assertThat(garbage.status()).isEqualTo(401);
        assertThat(Http.put(Stack.api() + "/posts/1", body("t", "c", null, 1)).status()).isEqualTo(401);
        assertThat(Http.delete(Stack.api() + "/posts/1").status()).isEqualTo(401);
    }

    @Test
    void everySaveWritesARevisionAndBumpsTheVersion() {
        Users.User author = Users.signUp();
        var created = author.post(Stack.api() + "/posts", body("제주 " + Users.random(5), "한라산\n성산일출봉\n", 29, null));
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.header("ETag")).isEqualTo("\"1\"");
        long id = created.data().path("id").asLong();
        assertThat(created.data().path("authorId").asLong()).isEqualTo(author.id);
        assertThat(created.data().path("authorNickname").asString()).isEqualTo(author.nickname);
        assertThat(created.data().path("categoryId").asLong()).isEqualTo(29);

        var second = author.put(Stack.api() + "/posts/" + id, body("제주도", "한라산\n우도\n성산일출봉\n", 29, 1));
        var third = author.send(author.call("PUT", Stack.api() + "/posts/" + id).header("If-Match", "\"2\"")
                .json(body("제주도", "한라산\n우도\n", 26, null)));

        assertThat(second.status()).as(second.toString()).isEqualTo(200);
        assertThat(second.data().path("version").asLong()).isEqualTo(2);
        assertThat(third.status()).as(third.toString()).isEqualTo(200);
        assertThat(third.data().path("version").asLong()).isEqualTo(3);
        assertThat(third.header("ETag")).isEqualTo("\"3\"");
        assertThat(revisionVersionsInThePrimary(id)).containsExactly(1L, 2L, 3L);

        var history = author.get(Stack.api() + "/posts/" + id + "/revisions?size=2");
        assertThat(versions(history.data().path("content"))).containsExactly(3L, 2L);
        assertThat(history.data().path("hasNext").asBoolean()).isTrue();
        var older = author.get(Stack.api() + "/posts/" + id + "/revisions?size=2&page=1");
        assertThat(versions(older.data().path("content"))).containsExactly(1L);
        assertThat(older.data().path("last").asBoolean()).isTrue();

        var first = author.get(Stack.api() + "/posts/" + id + "/revisions/1");
        assertThat(first.data().path("content").asString()).isEqualTo("한라산\n성산일출봉\n");
        assertThat(first.data().path("categoryId").asLong()).isEqualTo(29);
        assertThat(author.get(Stack.api() + "/posts/" + id + "/revisions/9").json().path("code").asString()).isEqualTo("REVISION_NOT_FOUND");

        var diff = author.get(Stack.api() + "/posts/" + id + "/diff?from=1&to=3");
        assertThat(diff.status()).isEqualTo(200);
        assertThat(diff.data().path("titleChanged").asBoolean()).isTrue();
        assertThat(diff.data().path("categoryChanged").asBoolean()).isTrue();
        assertThat(diff.data().path("added").asInt()).isEqualTo(1);
        assertThat(diff.data().path("removed").asInt()).isEqualTo(1);
        assertThat(diff.data().path("unified").asString()).contains("-성산일출봉", "+우도");
    }

    @Test
    void aStaleEditIsAConflictNamingTheCurrentVersionSoNothingIsOverwritten() {
        Users.User author = Users.signUp();
        long id = author.createPost("충돌 " + Users.random(5), "원본");
        assertThat(author.put(Stack.api() + "/posts/" + id, body("충돌", "첫 번째 편집", null, 1)).status()).isEqualTo(200);

        var stale = author.put(Stack.api() + "/posts/" + id, body("충돌", "옛 버전에서 시작한 편집", null, 1));
        var missing = author.put(Stack.api() + "/posts/" + id, body("충돌", "버전 없는 편집", null, null));

        assertThat(stale.status()).isEqualTo(409);
        assertThat(stale.json().path("code").asString()).isEqualTo("VERSION_CONFLICT");
        assertThat(stale.json().path("currentVersion").asLong()).isEqualTo(2);
        assertThat(missing.status()).isEqualTo(428);
        assertThat(missing.json().path("code").asString()).isEqualTo("VERSION_REQUIRED");
        var current = author.get(Stack.api() + "/posts/" + id);
        assertThat(current.data().path("content").asString()).isEqualTo("첫 번째 편집");
        assertThat(current.data().path("version").asLong()).isEqualTo(2);
    }

    @Test
    void anEditResentAfterItCommittedGetsTheFirstAnswerNotAConflictWithItself() {
        // nginx resends a PUT to the other node when the first died or timed out after its commit.
        Users.User author = Users.signUp();
        long id = author.createPost("재전송 " + Users.random(5), "원본");
        var edit = body("재전송", "한 번만 적용될 편집", 7, 1);

        var first = author.put(Stack.api() + "/posts/" + id, edit);
        var resent = author.put(Stack.api() + "/posts/" + id, edit);
        var otherText = author.put(Stack.api() + "/posts/" + id, body("재전송", "같은 버전에서 시작한 다른 편집", 7, 1));
        var otherCategory = author.put(Stack.api() + "/posts/" + id, body("재전송", "한 번만 적용될 편집", 8, 1));

        assertThat(first.status()).isEqualTo(200);
        assertThat(resent.status()).as("the resend of an edit that committed").isEqualTo(200);
        assertThat(resent.data().path("version").asLong()).isEqualTo(2);
        assertThat(resent.data().path("content").asString()).isEqualTo("한 번만 적용될 편집");
        assertThat(otherText.status()).as("another text from the same version is still a conflict").isEqualTo(409);
        assertThat(otherText.json().path("currentVersion").asLong()).isEqualTo(2);
        assertThat(otherCategory.status()).as("so is another category").isEqualTo(409);
        var history = author.get(Stack.api() + "/posts/" + id + "/revisions");
        assertThat(versions(history.data().path("content"))).as("the resend wrote no revision").containsExactly(2L, 1L);
    }

    @Test
    void onlyTheAuthorMayEditOrDelete() {
        Users.User author = Users.signUp();
        Users.User other = Users.signUp();
        long id = author.createPost("남의 글 " + Users.random(5), "내용");

        var edit = other.put(Stack.api() + "/posts/" + id, body("가로채기", "x", null, 1));
        var delete = other.delete(Stack.api() + "/posts/" + id);

        assertThat(edit.status()).isEqualTo(403);
        assertThat(edit.json().path("code").asString()).isEqualTo("NOT_POST_AUTHOR");
        assertThat(delete.status()).isEqualTo(403);
        assertThat(author.get(Stack.api() + "/posts/" + id).data().path("version").asLong()).isEqualTo(1);
    }

    @Test
    void unknownIdsAndCategoriesAreClientErrors() {
        Users.User author = Users.shared();
        assertThat(Http.get(Stack.api() + "/posts/999999999").json().path("code").asString()).isEqualTo("POST_NOT_FOUND");
        assertThat(author.put(Stack.api() + "/posts/999999999", body("t", "c", null, 1)).status()).isEqualTo(404);
        assertThat(author.delete(Stack.api() + "/posts/999999999").status()).isEqualTo(404);
        assertThat(Http.get(Stack.api() + "/posts/999999999/revisions").status()).isEqualTo(404);
        var badCategory = author.post(Stack.api() + "/posts", body("t", "c", 999, null));
        assertThat(badCategory.status()).isEqualTo(400);
        assertThat(badCategory.json().path("code").asString()).isEqualTo("CATEGORY_NOT_FOUND");
        assertThat(Http.get(Stack.api() + "/posts?categoryId=999").json().path("code").asString()).isEqualTo("CATEGORY_NOT_FOUND");
    }

    @Test
    void listsAreNewestFirstSlicesFilteredByCategory() {
        Users.User author = Users.signUp();
        List<Long> mine = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            mine.add(author.createPost(body("목록 " + i + " " + Users.random(4), "본문", 22, null)));
        }
        long elsewhere = author.createPost(body("다른 분류", "본문", 23, null));

        var page = author.get(Stack.api() + "/posts?categoryId=22&size=3");
        assertThat(page.status()).isEqualTo(200);
        assertThat(ids(page.data().path("content"))).containsExactly(mine.get(2), mine.get(1), mine.get(0));
        assertThat(page.data().path("size").asInt()).isEqualTo(3);
        assertThat(page.data().path("number").asInt()).isZero();
        assertThat(page.data().has("totalElements")).isFalse();
        for (JsonNode entry : page.data().path("content")) {
            assertThat(entry.path("categoryId").asLong()).isEqualTo(22);
            assertThat(entry.has("content")).isFalse();
        }
        var all = author.get(Stack.api() + "/posts?size=1");
        assertThat(ids(all.data().path("content"))).containsExactly(elsewhere);
        assertThat(all.data().path("hasNext").asBoolean()).isTrue();
        assertThat(all.data().path("last").asBoolean()).isFalse();
        for (String bad : new String[] {"page=-1", "size=0", "size=101", "page=abc", "page=10001&size=1"}) {
            var r = Http.get(Stack.api() + "/posts?" + bad);
            assertThat(r.status()).as(bad).isEqualTo(400);
            assertThat(r.json().path("code").asString()).isEqualTo("INVALID_INPUT");
        }
    }

    @Test
    void deleteHidesThePostFromReadsListsAndSearchButKeepsItsHistory() {
        Users.User author = Users.signUp();
        String word = Search.uniqueWord();
        long id = author.createPost("지울 글 " + word, "삭제 " + word);
        assertThat(author.put(Stack.api() + "/posts/" + id, body("지울 글 " + word, "고침 " + word, null, 1)).status()).isEqualTo(200);
        Eventually.within(FRESH, "searchable", () -> Search.idsOn(1, word).contains(id) && Search.idsOn(2, word).contains(id));

        assertThat(author.delete(Stack.api() + "/posts/" + id).status()).isEqualTo(204);

        assertThat(author.get(Stack.api() + "/posts/" + id).status()).isEqualTo(404);
        assertThat(author.get(Stack.api() + "/posts/" + id + "/revisions").status()).isEqualTo(404);
        assertThat(author.get(Stack.api() + "/posts/" + id + "/revisions/1").json().path("code").asString()).isEqualTo("POST_NOT_FOUND");
        assertThat(ids(author.get(Stack.api() + "/posts?size=50").data().path("content"))).doesNotContain(id);
        assertThat(author.delete(Stack.api() + "/posts/" + id).status()).isEqualTo(404);
        Eventually.within(FRESH, "gone from search on both nodes", () -> Search.idsOn(1, word).isEmpty() && Search.idsOn(2, word).isEmpty());
        assertThat(revisionVersionsInThePrimary(id)).containsExactly(1L, 2L);
    }

    /**
     * Row times keep their microseconds (DatabaseTime): Connector/J took MariaDB for MySQL 5.5.5
     * and sent whole seconds, so every row time was whole seconds. Three writes whose times all
     * fall on a whole second by chance: one in 10^18.
     */
    @Test
    void rowTimesKeepTheirFractionOfASecond() {
        Users.User author = Users.signUp();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(author.createPost("시각 " + i + " " + Users.random(5), "본문"));
        }
        assertThat(withAFraction("created_at", ids)).as("new posts whose created_at has a fraction of a second").isPositive();
        for (long id : ids) {
            assertThat(author.put(Stack.api() + "/posts/" + id, body("시각 고침 " + Users.random(5), "고침", null, 1)).status())
                    .isEqualTo(200);
        }
        assertThat(withAFraction("updated_at", ids)).as("edited posts whose updated_at has a fraction of a second").isPositive();
    }

    private static long withAFraction(String column, List<Long> ids) {
        String in = String.join(",", ids.stream().map(String::valueOf).toList());
        try (var c = Stack.primary(); var ps = c.prepareStatement(
                "SELECT COUNT(*) FROM posts WHERE id IN (" + in + ") AND MICROSECOND(" + column + ") <> 0");
                var rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    static List<Long> ids(JsonNode content) {
        List<Long> ids = new ArrayList<>();
        content.forEach(n -> ids.add(n.path("id").asLong()));
        return ids;
    }

    private static List<Long> versions(JsonNode content) {
        List<Long> versions = new ArrayList<>();
        content.forEach(n -> versions.add(n.path("version").asLong()));
        return versions;
    }

    private static List<Long> revisionVersionsInThePrimary(long postId) {
        List<Long> versions = new ArrayList<>();
        try (var c = Stack.primary(); var ps = c.prepareStatement("SELECT version FROM post_revisions WHERE post_id = ? ORDER BY version")) {
            ps.setLong(1, postId);
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    versions.add(rs.getLong(1));
                }
            }
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
        return versions;
    }
}
