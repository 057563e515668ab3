package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The JSON shapes of the API contract (architecture §4), exactly: names, nesting, types. Extra
 * or missing members fail, because existing clients read these bodies. (Autocomplete is not
 * part of this service yet; it arrives with the search work.)
 */
class ContractIT {

    private static final Set<String> USER = Set.of("id", "username", "nickname", "createdAt");
    private static final Set<String> DETAIL = Set.of("id", "title", "content", "authorId", "authorNickname", "categoryId",
            "viewCount", "likeCount", "liked", "createdAt", "updatedAt", "version");
    private static final Set<String> SLICE = Set.of("content", "number", "size", "hasNext", "last");
    private static final Set<String> SUMMARY = Set.of("id", "title", "authorId", "authorNickname", "categoryId", "viewCount",
            "likeCount", "createdAt", "updatedAt");
    private static final Set<String> HIT = Set.of("id", "title", "snippet", "authorId", "authorNickname", "viewCount",
            "likeCount", "createdAt");
    private static final Set<String> PROBLEM = Set.of("title", "status", "detail", "instance", "code", "requestId");

    private static Set<String> names(JsonNode node) {
        assertThat(node.isObject()).as("an object: " + node).isTrue();
        Set<String> names = new TreeSet<>();
        for (Iterator<String> it = node.propertyNames().iterator(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    private static JsonNode envelope(Http.Response r, int status) {
        assertThat(r.status()).as(r.toString()).isEqualTo(status);
        assertThat(r.header("Content-Type")).startsWith("application/json");
        assertThat(names(r.json())).containsExactlyInAnyOrder("status", "data");
        assertThat(r.json().path("status").asInt()).isEqualTo(status);
        return r.data();
    }

    private static void isTimestamp(JsonNode node) {
        assertThat(node.isString()).as(node.toString()).isTrue();
        Instant.parse(node.asString());
    }

    private static void isSlice(JsonNode slice, Set<String> entry, int size) {
        assertThat(names(slice)).isEqualTo(SLICE);
        assertThat(slice.path("content").isArray()).isTrue();
        assertThat(slice.path("number").isInt()).isTrue();
        assertThat(slice.path("size").asInt()).isEqualTo(size);
        assertThat(slice.path("hasNext").isBoolean()).isTrue();
        assertThat(slice.path("last").asBoolean()).isEqualTo(!slice.path("hasNext").asBoolean());
        assertThat(slice.path("content")).isNotEmpty();
        for (JsonNode e : slice.path("content")) {
            assertThat(names(e)).isEqualTo(entry);
        }
    }

    @Test
    void accountCalls() {
        String username = "ct" + Users.random(10);
        String api = Stack.node(1) + "/api/v1.0";
        var signup = Http.post(api + "/auth/signup", Map.of("username", username, "nickname", "ct" + Users.random(6), "password", "Contract-1"));
        JsonNode user = envelope(signup, 201);
        assertThat(names(user)).isEqualTo(USER);
        assertThat(user.path("id").isIntegralNumber()).isTrue();
        isTimestamp(user.path("createdAt"));
        assertThat(signup.cookie("token")).isNotBlank();

        var login = Http.post(api + "/auth/login", Map.of("username", username, "password", "Contract-1"));
        assertThat(names(envelope(login, 200))).isEqualTo(USER);
        String token = login.cookie("token");
        var me = Http.call("GET", Stack.api() + "/auth/me").header("Cookie", "token=" + token).send();
        assertThat(envelope(me, 200)).isEqualTo(user);

        JsonNode available = envelope(Http.get(api + "/auth/check-username?value=" + username), 200);
        assertThat(names(available)).containsExactlyInAnyOrder("value", "available");
        assertThat(available.path("available").isBoolean()).isTrue();
        assertThat(names(envelope(Http.get(api + "/auth/check-nickname?value=abc"), 200))).containsExactlyInAnyOrder("value", "available");

        var logout = Http.call("POST", Stack.api() + "/auth/logout").header("Cookie", "token=" + token).send();
        assertThat(logout.status()).isEqualTo(204);
        assertThat(logout.body()).isEmpty();
    }

    @Test
    void categoriesAreTheSeededTreeWithStableIds() {
        JsonNode categories = envelope(Http.get(Stack.api() + "/categories"), 200);
        assertThat(categories.isArray()).isTrue();
        assertThat(categories.size()).isGreaterThanOrEqualTo(30);
        for (int i = 0; i < 30; i++) {
            JsonNode c = categories.get(i);
            assertThat(names(c)).containsExactlyInAnyOrder("id", "name", "parentId");
            assertThat(c.path("id").asLong()).isEqualTo(i + 1);
            assertThat(c.path("name").isString()).isTrue();
        }
        assertThat(categories.get(0).path("name").asString()).isEqualTo("역사");
        assertThat(categories.get(0).path("parentId").isNull()).isTrue();
        assertThat(categories.get(26).path("name").asString()).isEqualTo("서울");
        assertThat(categories.get(26).path("parentId").asLong()).isEqualTo(6);
    }

    @Test
    void postCalls() {
        Users.User author = Users.signUp();
        String word = Search.uniqueWord();
        JsonNode created = envelope(author.post(Stack.api() + "/posts",
                Map.of("title", "계약 " + word, "content", "모양 " + word, "categoryId", 3)), 201);
        assertThat(names(created)).isEqualTo(DETAIL);
        assertThat(created.path("liked").isBoolean()).isTrue();
        assertThat(created.path("categoryId").asLong()).isEqualTo(3);
        isTimestamp(created.path("createdAt"));
        isTimestamp(created.path("updatedAt"));
        long id = created.path("id").asLong();

        JsonNode updated = envelope(author.put(Stack.api() + "/posts/" + id,
                Map.of("title", "계약 " + word, "content", "고친 모양 " + word, "version", 1)), 200);
        assertThat(names(updated)).isEqualTo(DETAIL);
        assertThat(names(envelope(author.get(Stack.api() + "/posts/" + id), 200))).isEqualTo(DETAIL);

        isSlice(envelope(author.get(Stack.api() + "/posts?size=2"), 200), SUMMARY, 2);
        isSlice(envelope(author.get(Stack.api() + "/posts/" + id + "/revisions"), 200),
                Set.of("version", "title", "categoryId", "authorId", "authorNickname", "createdAt"), 20);
        assertThat(names(envelope(author.get(Stack.api() + "/posts/" + id + "/revisions/1"), 200)))
                .containsExactlyInAnyOrder("postId", "version", "title", "content", "categoryId", "authorId", "authorNickname", "createdAt");
        assertThat(names(envelope(author.get(Stack.api() + "/posts/" + id + "/diff?from=1&to=2"), 200)))
                .containsExactlyInAnyOrder("postId", "from", "to", "titleChanged", "categoryChanged", "added", "removed", "unified");

        JsonNode liked = envelope(author.post(Stack.api() + "/posts/" + id + "/like", Map.of()), 200);
        assertThat(names(liked)).containsExactlyInAnyOrder("likeCount", "liked");
        assertThat(liked.path("likeCount").isIntegralNumber()).isTrue();
        assertThat(names(envelope(author.delete(Stack.api() + "/posts/" + id + "/like"), 200))).containsExactlyInAnyOrder("likeCount", "liked");

        Eventually.within(java.time.Duration.ofSeconds(5), "searchable", () -> Search.idsOn(1, word).contains(id));
        JsonNode search = envelope(Http.get(Stack.node(1) + "/api/v1.0/posts/search?q=" + word), 200);
        assertThat(names(search)).containsExactlyInAnyOrder("results", "suggestion", "categoryFacets");
        isSlice(search.path("results"), HIT, 10);
        assertThat(search.path("suggestion").isNull() || search.path("suggestion").isString()).isTrue();
        assertThat(search.path("categoryFacets").isObject()).isTrue();

        var delete = author.delete(Stack.api() + "/posts/" + id);
        assertThat(delete.status()).isEqualTo(204);
        assertThat(delete.body()).isEmpty();
    }

    @Test
    void errorsAreProblemDocumentsWithAStableCode() {
        var missing = Http.get(Stack.api() + "/posts/999999999");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.header("Content-Type")).startsWith("application/problem+json");
        assertThat(names(missing.json())).isEqualTo(PROBLEM);
        assertThat(missing.json().path("code").asString()).isEqualTo("POST_NOT_FOUND");
        assertThat(missing.json().path("status").asInt()).isEqualTo(404);
        assertThat(missing.json().path("instance").asString()).isEqualTo("/api/v1.0/posts/999999999");

        var unauthorized = Http.post(Stack.api() + "/posts", Map.of("title", "t", "content", "c"));
        assertThat(names(unauthorized.json())).isEqualTo(PROBLEM);
        assertThat(unauthorized.json().path("code").asString()).isEqualTo("AUTHENTICATION_REQUIRED");
    }
}
