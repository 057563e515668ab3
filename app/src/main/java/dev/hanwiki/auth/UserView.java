package dev.hanwiki.auth;

import java.time.Instant;

/** A user as the API shows it (sign-up, login, {@code /auth/me}); field names are part of the contract. */
record UserView(long id, String username, String nickname, Instant createdAt) {
}
