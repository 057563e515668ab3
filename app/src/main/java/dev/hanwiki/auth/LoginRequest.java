package dev.hanwiki.auth;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /auth/login}. The limits only keep absurd input away from the password
 * hash; they deliberately say nothing about which usernames or passwords exist.
 */
record LoginRequest(@NotBlank @Size(max = 64) String username, @NotBlank @Size(max = 256) String password) {
}
