package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The app serves its OpenAPI description, it covers the contract, and docs/openapi.json is a true copy. */
class OpenApiIT {

    private static final List<String> CONTRACT_PATHS = List.of("/api/v1.0/auth/signup", "/api/v1.0/auth/login",
            "/api/v1.0/auth/logout", "/api/v1.0/auth/me", "/api/v1.0/categories", "/api/v1.0/posts", "/api/v1.0/posts/{id}",
            "/api/v1.0/posts/{id}/like", "/api/v1.0/posts/search", "/api/v1.0/posts/{id}/revisions",
            "/api/v1.0/posts/{id}/revisions/{rev}", "/api/v1.0/posts/{id}/diff");

    @Test
    void theServedDescriptionCoversTheContractAndMatchesTheCopyInDocs() throws Exception {
        var served = Http.get(Stack.api().replace("/api/v1.0", "") + "/v3/api-docs");
        assertThat(served.status()).isEqualTo(200);
        JsonNode api = served.json();
        assertThat(api.path("openapi").asString()).startsWith("3.1");
        for (String path : CONTRACT_PATHS) {
            assertThat(api.path("paths").has(path)).as(path).isTrue();
        }
        assertThat(api.path("paths").has("/internal/index/stats")).isFalse();

        // The compatibility members (issue 17, ADR 0070) are described, not only served.
        JsonNode schemas = api.path("components").path("schemas");
        assertThat(schemas.path("UserView").path("properties").has("userId")).isTrue();
        assertThat(schemas.path("ResultSlicePostSummary").path("properties").has("first")).isTrue();
        assertThat(schemas.path("ResultSliceSearchHit").path("properties").has("first")).isTrue();
        assertThat(schemas.path("SearchResponse").path("properties").has("rewrittenFrom")).isTrue();
        assertThat(schemas.path("Problem").path("properties").has("message")).isTrue();
        assertThat(api.path("paths").path("/api/v1.0/posts/{id}").path("put").path("responses").path("default")
                .path("content").has("application/problem+json")).isTrue();
        assertThat(api.path("info").path("description").asString()).contains("/api/v1/");
        // The status each call really answers, so its body is checked against the right schema.
        assertThat(api.path("paths").path("/api/v1.0/posts").path("post").path("responses").has("201")).isTrue();
        assertThat(api.path("paths").path("/api/v1.0/posts/{id}").path("delete").path("responses").has("204")).isTrue();
        // The opt-out of the keyboard-layout rescue (issue 17) is a documented parameter.
        assertThat(api.path("paths").path("/api/v1.0/posts/search").path("get").path("parameters").findValuesAsString("name"))
                .contains("exact");
        // Fields that are null in real answers say so, or a client checking answers against the
        // description (make fuzz) finds "violations" in every search without a suggestion.
        assertThat(types(schemas.path("SearchResponse").path("properties").path("suggestion"))).containsExactlyInAnyOrder("string", "null");
        assertThat(types(schemas.path("SearchResponse").path("properties").path("rewrittenFrom"))).containsExactlyInAnyOrder("string", "null");
        assertThat(types(schemas.path("PostDetail").path("properties").path("categoryId"))).containsExactlyInAnyOrder("integer", "null");
        assertThat(types(schemas.path("PostDetail").path("properties").path("title"))).containsExactly("string");

        JsonNode copy = Http.JSON.readTree(Files.readString(Stack.ROOT.resolve("docs/openapi.json")));
        assertThat(copy).as("docs/openapi.json is out of date: run 'make openapi' with the stack up").isEqualTo(api);
    }

    private static List<String> types(JsonNode property) {
        JsonNode type = property.path("type");
        return type.isArray() ? type.valueStream().map(JsonNode::asString).toList() : List.of(type.asString());
    }
}
