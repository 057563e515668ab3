package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * The JSON shapes of the API contract (architecture §4), exactly: names, nesting, types. Extra
 * or missing members fail, because existing clients read these bodies. Every call runs under
 * both {@code /api/v1.0} and its alias {@code /api/v1} (issue 17: existing clients use either).
 * (Autocomplete is not part of this service yet; it arrives with the search work.)
 */
class ContractIT {

    private static final Set<String> USER = Set.of("id", "userId", "username", "nickname", "createdAt");
    private static final Set<String> DETAIL = Set.of("id", "title", "content", "authorId", "authorNickname", "categoryId",
            "viewCount", "likeCount", "liked", "createdAt", "updatedAt", "version");
    private static final Set<String> SLICE = Set.of("content", "number", "size", "first", "hasNext", "last");
    private static final Set<String> SUMMARY = Set.of("id", "title", "authorId", "authorNickname", "categoryId", "viewCount",
            "likeCount", "createdAt", "updatedAt");
    private static final Set<String> HIT = Set.of("id", "title", "snippet", "authorId", "authorNickname", "viewCount",
            "likeCount", "createdAt");
    private static final Set<String> PROBLEM = Set.of("title", "status", "detail", "message", "instance", "code", "requestId");
    private static final Set<String> PROBLEM_WITH_CURRENT_VERSION = Set.of("title", "status", "detail", "message", "instance",
            "code", "currentVersion", "requestId");

    /** The public entry (nginx) under one of the two prefixes. */
    private static String api(String version) {
        return Stack.api().replace("/api/v1.0", "/api/" + version);
    }

    private static void isProblem(Http.Response r, int status, String code, Set<String> members) {
        assertThat(r.status()).as(r.toString()).isEqualTo(status);
        assertThat(r.header("Content-Type")).startsWith("application/problem+json");
        assertThat(names(r.json())).isEqualTo(members);
        assertThat(r.json().path("status").asInt()).isEqualTo(status);
        assertThat(r.json().path("code").asString()).isEqualTo(code);
        assertThat(r.json().path("message").asString()).as("message repeats detail").isEqualTo(r.json().path("detail").asString());
    }

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
        assertThat(slice.path("first").asBoolean()).isEqualTo(slice.path("number").asInt() == 0);
        assertThat(slice.path("last").asBoolean()).isEqualTo(!slice.path("hasNext").asBoolean());
        assertThat(slice.path("content")).isNotEmpty();
        for (JsonNode e : slice.path("content")) {
            assertThat(names(e)).isEqualTo(entry);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1.0", "v1"})
    void accountCalls(String version) {
        String username = "ct" + Users.random(10);
        String api = Stack.node(1) + "/api/" + version;
        var signup = Http.post(api + "/auth/signup", Map.of("username", username, "nickname", "ct" + Users.random(6), "password", "Contract-test-1"));
        JsonNode user = envelope(signup, 201);
        assertThat(names(user)).isEqualTo(USER);
        assertThat(user.path("id").isIntegralNumber()).isTrue();
        assertThat(user.path("userId").asLong()).isEqualTo(user.path("id").asLong());
        isTimestamp(user.path("createdAt"));
        assertThat(signup.cookie("token")).isNotBlank();

        var login = Http.post(api + "/auth/login", Map.of("username", username, "password", "Contract-test-1"));
        assertThat(names(envelope(login, 200))).isEqualTo(USER);
        String token = login.cookie("token");
        var me = Http.call("GET", api(version) + "/auth/me").header("Cookie", "token=" + token).send();
        assertThat(envelope(me, 200)).isEqualTo(user);

        JsonNode available = envelope(Http.get(api + "/auth/check-username?value=" + username), 200);
        assertThat(names(available)).containsExactlyInAnyOrder("value", "available");
        assertThat(available.path("available").isBoolean()).isTrue();
        assertThat(names(envelope(Http.get(api + "/auth/check-nickname?value=abc"), 200))).containsExactlyInAnyOrder("value", "available");

        var logout = Http.call("POST", api(version) + "/auth/logout").header("Cookie", "token=" + token).header("X-Requested-With", "contract").send();
        assertThat(logout.status()).isEqualTo(204);
        assertThat(logout.body()).isEmpty();
        isProblem(Http.call("GET", api(version) + "/auth/me").header("Cookie", "token=" + token).send(), 401, "TOKEN_REVOKED", PROBLEM);
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1.0", "v1"})
    void categoriesAreTheSeededTreeWithStableIds(String version) {
        JsonNode categories = envelope(Http.get(api(version) + "/categories"), 200);
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

    @ParameterizedTest
    @ValueSource(strings = {"v1.0", "v1"})
    void postCalls(String version) {
        String api = api(version);
        Users.User author = Users.signUp();
        String word = Search.uniqueWord();
        var create = author.post(api + "/posts",
                Map.of("title", "계약 " + word, "content", "모양 " + word, "categoryId", 3));
        JsonNode created = envelope(create, 201);
        assertThat(create.header("Location")).isEqualTo("/api/v1.0/posts/" + created.path("id").asLong());
        assertThat(names(created)).isEqualTo(DETAIL);
        assertThat(created.path("liked").isBoolean()).isTrue();
        assertThat(created.path("categoryId").asLong()).isEqualTo(3);
        isTimestamp(created.path("createdAt"));
        isTimestamp(created.path("updatedAt"));
        long id = created.path("id").asLong();

        JsonNode updated = envelope(author.put(api + "/posts/" + id,
                Map.of("title", "계약 " + word, "content", "고친 모양 " + word, "version", 1)), 200);
        assertThat(names(updated)).isEqualTo(DETAIL);
        assertThat(names(envelope(author.get(api + "/posts/" + id), 200))).isEqualTo(DETAIL);

        isSlice(envelope(author.get(api + "/posts?size=2"), 200), SUMMARY, 2);
        isSlice(envelope(author.get(api + "/posts/" + id + "/revisions"), 200),
                Set.of("version", "title", "categoryId", "authorId", "authorNickname", "createdAt"), 20);
        assertThat(names(envelope(author.get(api + "/posts/" + id + "/revisions/1"), 200)))
                .containsExactlyInAnyOrder("postId", "version", "title", "content", "categoryId", "authorId", "authorNickname", "createdAt");
        assertThat(names(envelope(author.get(api + "/posts/" + id + "/diff?from=1&to=2"), 200)))
                .containsExactlyInAnyOrder("postId", "from", "to", "titleChanged", "categoryChanged", "added", "removed", "unified");

        JsonNode liked = envelope(author.post(api + "/posts/" + id + "/like", Map.of()), 200);
        assertThat(names(liked)).containsExactlyInAnyOrder("likeCount", "liked");
        assertThat(liked.path("likeCount").isIntegralNumber()).isTrue();
        assertThat(names(envelope(author.delete(api + "/posts/" + id + "/like"), 200))).containsExactlyInAnyOrder("likeCount", "liked");

        Eventually.within(java.time.Duration.ofSeconds(5), "searchable", () -> Search.idsOn(1, word).contains(id));
        JsonNode search = envelope(Http.get(Stack.node(1) + "/api/" + version + "/posts/search?q=" + word), 200);
        assertThat(names(search)).containsExactlyInAnyOrder("results", "suggestion", "rewrittenFrom", "categoryFacets");
        isSlice(search.path("results"), HIT, 10);
        assertThat(search.path("suggestion").isNull() || search.path("suggestion").isString()).isTrue();
        assertThat(search.path("rewrittenFrom").isNull()).as("the query as typed found it").isTrue();
        assertThat(search.path("categoryFacets").isObject()).isTrue();

        var delete = author.delete(api + "/posts/" + id);
        assertThat(delete.status()).isEqualTo(204);
        assertThat(delete.body()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1.0", "v1"})
    void errorsAreProblemDocumentsWithAStableCode(String version) {
        String api = api(version);
        var missing = Http.get(api + "/posts/999999999");
        isProblem(missing, 404, "POST_NOT_FOUND", PROBLEM);
        // One canonical path whichever prefix was used: the alias is rewritten before anything reads it.
        assertThat(missing.json().path("instance").asString()).isEqualTo("/api/v1.0/posts/999999999");

        isProblem(Http.post(api + "/posts", Map.of("title", "t", "content", "c")), 401, "AUTHENTICATION_REQUIRED", PROBLEM);
        isProblem(Http.get(api + "/no-such-thing"), 404, "NOT_FOUND", PROBLEM);
        Users.User user = Users.shared();
        isProblem(user.send(user.call("PATCH", api + "/posts/1")), 405, "METHOD_NOT_ALLOWED", PROBLEM);
        isProblem(user.send(user.call("POST", api + "/posts").raw("x", "text/plain")),
                415, "UNSUPPORTED_MEDIA_TYPE", PROBLEM);
        isProblem(user.send(user.call("POST", api + "/posts").raw("{\"title\":", "application/json")),
                400, "INVALID_INPUT", PROBLEM);
        isProblem(Http.get(api + "/posts?size=0"), 400, "INVALID_INPUT", PROBLEM);
    }

    /** nginx's own answers (here: operator paths it refuses) are problems with message too. */
    @Test
    void nginxProblemsCarryMessage() {
        isProblem(Http.get(Stack.api().replace("/api/v1.0", "") + "/actuator/health"), 404, "NOT_FOUND",
                Set.of("title", "status", "detail", "message", "code", "requestId"));
    }

    /**
     * Authorization (401/403) is decided before the version preconditions (428/409): a
     * non-author is told 403 whatever version the edit names, or none.
     */
    @ParameterizedTest
    @ValueSource(strings = {"v1.0", "v1"})
    void authorizationIsDecidedBeforeVersionPreconditions(String version) {
        String api = api(version);
        Users.User author = Users.signUp();
        Users.User other = Users.shared();
        long id = author.createPost("권한 " + Users.random(5), "내용");
        Map<String, Object> unversioned = Map.of("title", "가로채기", "content", "x");

        isProblem(other.put(api + "/posts/" + id, unversioned), 403, "NOT_POST_AUTHOR", PROBLEM);
        isProblem(other.put(api + "/posts/" + id, Map.of("title", "가로채기", "content", "x", "version", 7)),
                403, "NOT_POST_AUTHOR", PROBLEM);
        isProblem(Http.put(api + "/posts/" + id, unversioned), 401, "AUTHENTICATION_REQUIRED", PROBLEM);
        isProblem(other.put(api + "/posts/999999999", unversioned), 404, "POST_NOT_FOUND", PROBLEM);
        isProblem(author.put(api + "/posts/" + id, unversioned), 428, "VERSION_REQUIRED", PROBLEM);
        isProblem(author.put(api + "/posts/" + id, Map.of("title", "t", "content", "x", "version", 7)),
                409, "VERSION_CONFLICT", PROBLEM_WITH_CURRENT_VERSION);
        assertThat(author.get(api + "/posts/" + id).data().path("version").asLong()).isEqualTo(1);
    }

    /**
     * The keyboard-layout rescue: a Korean word typed in Latin mode is searched as Korean, and
     * the answer says so (rewrittenFrom = what was typed, suggestion = what was searched).
     */
    @ParameterizedTest
    @ValueSource(strings = {"v1.0", "v1"})
    void searchSaysWhenTheKeyboardRescueRewroteTheQuery(String version) {
        StringBuilder keys = new StringBuilder();
        String hangul = KeyboardWords.random(5, keys);
        // The word alone: Nori segments it the same way in the page and in the query.
        long id = Search.create(hangul, hangul);
        Eventually.within(java.time.Duration.ofSeconds(5), "searchable", () -> Search.idsOn(1, hangul).contains(id));

        JsonNode rescued = envelope(Http.get(Stack.node(1) + "/api/" + version + "/posts/search?q=" + keys), 200);
        assertThat(rescued.path("rewrittenFrom").asString()).isEqualTo(keys.toString());
        assertThat(rescued.path("suggestion").asString()).isEqualTo(hangul);
        assertThat(rescued.path("results").path("content").findValuesAsString("title")).contains(hangul);

        JsonNode typed = envelope(Http.get(Stack.node(1) + "/api/" + version + "/posts/search?q=" + Http.enc(hangul)), 200);
        assertThat(typed.path("rewrittenFrom").isNull()).isTrue();

        // "search instead for <keys>": exact=true searches the keystrokes as typed (issue 17).
        JsonNode exact = envelope(Http.get(Stack.node(1) + "/api/" + version + "/posts/search?exact=true&q=" + keys), 200);
        assertThat(exact.path("rewrittenFrom").isNull()).as("not rewritten").isTrue();
        assertThat(exact.path("results").path("content").findValuesAsString("title")).doesNotContain(hangul);
        isProblem(Http.get(Stack.node(1) + "/api/" + version + "/posts/search?exact=maybe&q=" + keys), 400, "INVALID_INPUT", PROBLEM);
    }
}
