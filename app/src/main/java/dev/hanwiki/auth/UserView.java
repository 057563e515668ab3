package dev.hanwiki.auth;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/**
 * A user as the API shows it (sign-up, login, {@code /auth/me}); field names are part of the
 * contract. {@code userId} repeats {@code id} for clients that read that name (architecture §4).
 */
record UserView(long id, String username, String nickname, Instant createdAt) {

    @JsonProperty("userId")
    public long userId() {
        return id;
    }
}
