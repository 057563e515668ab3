package dev.hanwiki.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The user as sign-up, login and /auth/me answer it: {@code id} and, for older clients, {@code userId}. */
class UserViewJsonTest {

    @Test
    void userIdRepeatsIdBesideTheOtherMembers() {
        JsonNode json = JsonMapper.builder().build()
                .valueToTree(new UserView(42, "alice01", "앨리스", Instant.parse("2026-01-02T03:04:05Z")));

        assertThat(json.propertyNames()).containsExactlyInAnyOrder("id", "userId", "username", "nickname", "createdAt");
        assertThat(json.path("userId").asLong()).isEqualTo(42);
        assertThat(json.path("id").asLong()).isEqualTo(42);
    }
}
