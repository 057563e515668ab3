package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Accounts and tokens against the real stack: sign-up, login, the token cookie, Bearer, me,
 * the availability checks, and logout taking effect on both nodes through the auth Redis.
 * Sign-up and login go to the nodes directly (see {@link Users}); the token then works
 * everywhere, nginx included.
 */
class AuthIT {

    private static String auth(int node) {
        return Stack.node(node) + "/api/v1.0/auth";
    }

    @Test
    void signUpAnswersTheUserAndSetsAnHttpOnlyLaxTokenCookieForThirtyMinutes() {
        String username = "su" + Users.random(10);
        var r = Http.post(auth(1) + "/signup", Map.of("username", username, "nickname", "n" + Users.random(6), "password", "Secret-123"));

        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        assertThat(r.json().path("status").asInt()).isEqualTo(201);
        assertThat(r.data().path("username").asString()).isEqualTo(username);
        String cookie = r.headers("Set-Cookie").stream().filter(c -> c.startsWith("token=")).findFirst().orElseThrow();
        assertThat(cookie).contains("HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=1800");
        var claims = Tokens.claims(r.cookie("token"));
        assertThat(claims.getJWTID()).isNotBlank();
        assertThat(claims.getSubject()).isEqualTo(Long.toString(r.data().path("id").asLong()));
        assertThat(Duration.between(claims.getIssueTime().toInstant(), claims.getExpirationTime().toInstant()))
                .isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void passwordsAreStoredAsArgon2HashesNeverInClear() throws Exception {
        Users.User user = Users.signUp();
        try (var c = Stack.primary(); var ps = c.prepareStatement("SELECT password_hash FROM users WHERE id = ?")) {
            ps.setLong(1, user.id);
            try (var rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).startsWith("{argon2@SpringSecurity_v5_8}$argon2id$").doesNotContain(Users.PASSWORD);
            }
        }
    }

    @Test
    void duplicatesAreConflictsWithAClearCodeAndCaseDoesNotMakeANewName() {
        Users.User taken = Users.signUp();

        var sameUsername = Http.post(auth(2) + "/signup",
                Map.of("username", taken.username.toUpperCase(), "nickname", "n" + Users.random(6), "password", "Secret-123"));
        var sameNickname = Http.post(auth(2) + "/signup",
                Map.of("username", "u" + Users.random(10), "nickname", taken.nickname, "password", "Secret-123"));

        assertThat(sameUsername.status()).isEqualTo(409);
        assertThat(sameUsername.json().path("code").asString()).isEqualTo("USERNAME_TAKEN");
        assertThat(sameNickname.status()).isEqualTo(409);
        assertThat(sameNickname.json().path("code").asString()).isEqualTo("NICKNAME_TAKEN");
    }

    @Test
    void signUpRulesAreEnforced() {
        String[][] bad = {
                {"abcd", "nick" + Users.random(3), "Secret-123", "username"},
                {"bad name" + Users.random(3), "nick" + Users.random(3), "Secret-123", "username"},
                {"u" + Users.random(10), "n", "Secret-123", "nickname"},
                {"u" + Users.random(10), "n" + Users.random(12), "Secret-123", "nickname"},
                {"u" + Users.random(10), "n" + Users.random(5), "Short1!", "password"},
                {"u" + Users.random(10), "n" + Users.random(5), "onlylowercase", "password"},
                {"u" + Users.random(10), "n" + Users.random(5), "x".repeat(64) + "A", "password"}};
        for (String[] c : bad) {
            var r = Http.post(auth(1) + "/signup", Map.of("username", c[0], "nickname", c[1], "password", c[2]));
            assertThat(r.status()).as(String.join(",", c)).isEqualTo(400);
            assertThat(r.json().path("code").asString()).isEqualTo("INVALID_INPUT");
            assertThat(r.json().path("detail").asString()).contains(c[3]);
        }
    }

    /** Look-alike names and titles (issue 13, ADR 0088): refused with a clear 400, never stored. */
    @Test
    void lookAlikeNicknamesAndTitlesAreRefused() {
        String[] nicknames = {"p\u0430yp" + Users.random(3), "\u0421\u043E\u0441" + "\u0441".repeat(2), "\u3164\u3164\u3164"};
        for (String nickname : nicknames) {
            var r = Http.post(auth(1) + "/signup", Map.of("username", "u" + Users.random(10), "nickname", nickname, "password", "Secret-123"));
            assertThat(r.status()).as(nickname).isEqualTo(400);
            assertThat(r.json().path("code").asString()).isEqualTo("INVALID_INPUT");
            assertThat(r.json().path("detail").asString()).startsWith("nickname must not");
        }
        var title = Users.shared().post(Stack.api() + "/posts", Map.of("title", "G\u043Eogle 검색 " + Users.random(4), "content", "본문"));
        assertThat(title.status()).as(title.toString()).isEqualTo(400);
        assertThat(title.json().path("detail").asString()).startsWith("title must not mix look-alike characters");
    }

    @Test
    void loginSetsAFreshTokenAndWrongCredentialsLookTheSame() {
        Users.User user = Users.signUp();

        var ok = Http.post(auth(2) + "/login", Map.of("username", user.username, "password", Users.PASSWORD));
        var wrongPassword = Http.post(auth(2) + "/login", Map.of("username", user.username, "password", "Wrong-pass-1"));
        var unknownUser = Http.post(auth(2) + "/login", Map.of("username", "nobody" + Users.random(8), "password", Users.PASSWORD));

        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.data().path("id").asLong()).isEqualTo(user.id);
        assertThat(ok.cookie("token")).isNotBlank().isNotEqualTo(user.token);
        assertThat(wrongPassword.status()).isEqualTo(401);
        assertThat(unknownUser.status()).isEqualTo(401);
        assertThat(wrongPassword.json().path("code").asString()).isEqualTo("INVALID_CREDENTIALS");
        assertThat(unknownUser.json().path("detail").asString()).isEqualTo(wrongPassword.json().path("detail").asString());
    }

    @Test
    void theTokenWorksAsCookieAndAsBearerOnBothNodesAndThroughNginx() {
        Users.User user = Users.signUp();
        for (String base : new String[] {Stack.node(1), Stack.node(2), "http://127.0.0.1:" + Stack.port("NGINX_PORT")}) {
            var bearer = Http.call("GET", base + "/api/v1.0/auth/me").header("Authorization", "Bearer " + user.token).send();
            var cookie = Http.call("GET", base + "/api/v1.0/auth/me").header("Cookie", "token=" + user.token).send();
            assertThat(bearer.status()).as(base + " " + bearer).isEqualTo(200);
            assertThat(bearer.data().path("nickname").asString()).isEqualTo(user.nickname);
            assertThat(cookie.status()).as(base + " " + cookie).isEqualTo(200);
            assertThat(cookie.data().path("id").asLong()).isEqualTo(user.id);
        }
    }

    @Test
    void meWithoutAValidTokenIsRefusedWithTheReason() {
        Users.User user = Users.signUp();
        String expired = Tokens.signed(user.id, Instant.now().minusSeconds(3600), Instant.now().minusSeconds(5));
        String tampered = user.token.substring(0, user.token.length() - 4) + (user.token.endsWith("AAAA") ? "BBBB" : "AAAA");

        assertThat(code(Http.get(Stack.api() + "/auth/me"))).isEqualTo("AUTHENTICATION_REQUIRED");
        assertThat(code(bearer(expired))).isEqualTo("TOKEN_EXPIRED");
        assertThat(code(bearer(tampered))).isEqualTo("INVALID_TOKEN");
        assertThat(code(bearer("garbage"))).isEqualTo("INVALID_TOKEN");
    }

    @Test
    void logoutRevokesTheTokenOnBothNodesForItsRemainingLifetimeAndClearsTheCookie() {
        Users.User user = Users.signUp();
        var claims = Tokens.claims(user.token);

        var logout = Http.call("POST", Stack.node(1) + "/api/v1.0/auth/logout").header("Authorization", "Bearer " + user.token).send();

        assertThat(logout.status()).as(logout.toString()).isEqualTo(204);
        String cleared = logout.headers("Set-Cookie").stream().filter(c -> c.startsWith("token=")).findFirst().orElseThrow();
        assertThat(cleared).contains("Max-Age=0");
        for (int node = 1; node <= 2; node++) {
            var me = Http.call("GET", Stack.node(node) + "/api/v1.0/auth/me").header("Authorization", "Bearer " + user.token).send();
            assertThat(me.status()).isEqualTo(401);
            assertThat(code(me)).isEqualTo("TOKEN_REVOKED");
            var write = Http.call("POST", Stack.node(node) + "/api/v1.0/posts").header("Authorization", "Bearer " + user.token)
                    .json(Map.of("title", "t", "content", "c")).send();
            assertThat(code(write)).isEqualTo("TOKEN_REVOKED");
        }
        Duration remaining = Duration.between(Instant.now(), claims.getExpirationTime().toInstant());
        Duration ttl = Tokens.blacklistTtl(claims.getJWTID());
        assertThat(ttl).isPositive().isBetween(remaining.minusSeconds(10), remaining.plusSeconds(10));
        // A fresh login gives a new, working token.
        var again = Http.post(auth(2) + "/login", Map.of("username", user.username, "password", Users.PASSWORD));
        assertThat(Http.call("GET", Stack.api() + "/auth/me").header("Authorization", "Bearer " + again.cookie("token")).send().status())
                .isEqualTo(200);
    }

    @Test
    void availabilityChecksAnswerForTakenAndFreeNames() {
        Users.User user = Users.signUp();

        // Anonymous checks read the replica, which may be a few ms behind the sign-up.
        Eventually.within(java.time.Duration.ofSeconds(2), "the replica knows the new account", () ->
                !Http.get(auth(1) + "/check-username?value=" + user.username.toUpperCase()).data().path("available").asBoolean()
                        && !Http.get(auth(1) + "/check-nickname?value=" + Http.enc(user.nickname)).data().path("available").asBoolean());
        var free = Http.get(auth(1) + "/check-username?value=free" + Users.random(8));
        var freeNick = Http.get(auth(1) + "/check-nickname?value=" + Http.enc("새이름" + Users.random(3)));

        assertThat(free.data().path("available").asBoolean()).isTrue();
        assertThat(freeNick.data().path("available").asBoolean()).isTrue();
    }

    private static Http.Response bearer(String token) {
        return Http.call("GET", Stack.api() + "/auth/me").header("Authorization", "Bearer " + token).send();
    }

    private static String code(Http.Response r) {
        return r.json().path("code").asString();
    }
}
