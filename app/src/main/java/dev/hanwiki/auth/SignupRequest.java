package dev.hanwiki.auth;

/** Body of {@code POST /auth/signup}; the rules live in {@link AccountRules}. */
record SignupRequest(String username, String nickname, String password) {
}
