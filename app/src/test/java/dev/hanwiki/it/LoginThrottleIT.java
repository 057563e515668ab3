package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Logins protect accounts without punishing shared addresses (ADR 0085). Client addresses are
 * real where nginx matters (requests from 127.0.0.2, which is not a trusted load generator)
 * and named with X-Real-IP on a node's own port where only the app's throttle is under test
 * (nodes take the client address from nginx's X-Real-IP).
 */
class LoginThrottleIT {

    private static final String UNTRUSTED_SOURCE = "127.0.0.2";

    @Test
    void twoHundredUsersLoggingInFromOneAddressWithinAMinuteAllSucceed() throws Exception {
        List<String> usernames = Collections.synchronizedList(new ArrayList<>());
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> signups = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                signups.add(pool.submit(() -> {
                    String username = "campus" + Users.random(10);
                    Http.Response r = Http.post(Stack.node(1) + "/api/v1.0/auth/signup",
                            Map.of("username", username, "nickname", "c" + Users.random(8), "password", Users.PASSWORD));
                    assertThat(r.status()).as(r.toString()).isEqualTo(201);
                    usernames.add(username);
                }));
            }
            for (Future<?> f : signups) {
                f.get();
            }
        }
        long start = System.nanoTime();
        List<Http.Response> logins = Collections.synchronizedList(new ArrayList<>());
        try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
            List<Future<?>> calls = new ArrayList<>();
            for (String username : usernames) {
                calls.add(pool.submit(() -> logins.add(Http.call("POST", Stack.api() + "/auth/login").from(UNTRUSTED_SOURCE)
                        .json(Map.of("username", username, "password", Users.PASSWORD)).send())));
            }
            for (Future<?> f : calls) {
                f.get();
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("LoginThrottleIT: 200 logins from one address in %.1f s%n", seconds);
        assertThat(logins).hasSize(200);
        assertThat(logins.stream().filter(r -> r.status() != 200).map(Http.Response::toString).toList()).isEmpty();
        assertThat(seconds).as("all within a minute").isLessThan(60);
    }

    @Test
    void fiftyWrongPasswordsFromRotatingAddressesAreSlowedToTheAccountRate() {
        Users.User owner = Users.signUp();
        // The owner signs in from home first: that address is now known for the account.
        assertThat(login(owner.username, Users.PASSWORD, "203.0.113.250").status()).isEqualTo(200);

        List<Http.Response> guesses = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            guesses.add(login(owner.username, "Guess-" + i + "-x", "198.51.100." + (i + 1)));
        }
        long checked = guesses.stream().filter(r -> r.status() == 401).count();
        List<Http.Response> throttled = guesses.stream().filter(r -> r.status() == 429).toList();
        assertThat(checked).as("guesses whose password was checked: the account burst (10)").isEqualTo(10);
        assertThat(throttled).hasSize(40);
        for (Http.Response r : throttled) {
            assertThat(r.json().path("code").asString()).isEqualTo("LOGIN_THROTTLED");
            int retryAfter = Integer.parseInt(r.header("Retry-After"));
            assertThat(retryAfter).as("one more try per account every 30 s").isBetween(1, 30);
            assertThat(r.json().path("retryAfterSeconds").asInt()).isEqualTo(retryAfter);
        }

        // The owner at a new address is told when to retry ...
        Http.Response elsewhere = login(owner.username, Users.PASSWORD, "192.0.2.77");
        assertThat(elsewhere.status()).isEqualTo(429);
        assertThat(elsewhere.header("Content-Type")).startsWith("application/problem+json");
        assertThat(elsewhere.json().path("code").asString()).isEqualTo("LOGIN_THROTTLED");
        assertThat(elsewhere.header("Retry-After")).isNotEmpty();
        // ... and at home is not starved by the guessers' failures.
        assertThat(login(owner.username, Users.PASSWORD, "203.0.113.250").status()).isEqualTo(200);
    }

    @Test
    void oneAddressGuessingOneAccountIsCutOffSoonerThanTheAccount() {
        Users.User owner = Users.signUp();
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            statuses.add(login(owner.username, "Guess-" + i + "-y", "198.51.100.200").status());
        }
        assertThat(statuses).containsExactly(401, 401, 401, 401, 401, 429, 429);
        // Another address may still try (and the right password works there).
        assertThat(login(owner.username, Users.PASSWORD, "198.51.100.201").status()).isEqualTo(200);
    }

    @Test
    void successfulLoginsDoNotCountAgainstTheAccount() {
        Users.User owner = Users.signUp();
        for (int i = 0; i < 15; i++) {
            assertThat(login(owner.username, Users.PASSWORD, "198.51.100." + (i + 100)).status()).as("login " + i).isEqualTo(200);
        }
    }

    private static Http.Response login(String username, String password, String address) {
        return Http.call("POST", Stack.node(1) + "/api/v1.0/auth/login").header("X-Real-IP", address)
                .json(Map.of("username", username, "password", password)).send();
    }
}
