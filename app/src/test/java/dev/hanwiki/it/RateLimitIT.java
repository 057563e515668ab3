package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * nginx's per-address ceiling on logins (docs/security.md): generous enough for a campus behind
 * one address (400 at once, then 20 a second), but a flood from one address is cut off with 429
 * and a problem body; a trusted load generator (127.0.0.1 in the test stack) is exempt. The
 * flood's bodies are empty objects, so the app answers each admitted one with a cheap 400.
 */
class RateLimitIT {

    private static final int FLOOD = 600;
    private static final int ALIAS_BURST = 40;
    /** Not a trusted load generator, and no other test's source (LoginThrottleIT uses 127.0.0.2). */
    private static final String UNTRUSTED_SOURCE = "127.0.0.3";

    @Test
    void aFloodOfLoginsFromOneAddressIsCutOffWithTooManyRequests() throws Exception {
        List<Http.Response> responses = flood(UNTRUSTED_SOURCE);
        List<Http.Response> limited = responses.stream().filter(r -> r.status() == 429).toList();
        assertThat(limited).as("refused attempts").isNotEmpty();
        assertThat(responses.stream().filter(r -> r.status() != 429 && r.status() != 400).map(Http.Response::toString))
                .isEmpty();
        assertThat(responses.stream().filter(r -> r.status() == 400).count()).as("the burst reaches the app")
                .isGreaterThanOrEqualTo(400);
        Http.Response tooMany = limited.get(0);
        assertThat(tooMany.header("Content-Type")).startsWith("application/problem+json");
        assertThat(tooMany.json().path("code").asString()).isEqualTo("TOO_MANY_REQUESTS");
        assertThat(tooMany.json().path("status").asInt()).isEqualTo(429);
        assertThat(tooMany.header("Retry-After")).isNotEmpty();
        // The /api/v1 alias of login is limited by the same zone (ADR 0070). The zone's bucket is
        // full after the flood but leaks one request every 50 ms (20 r/s), so one request after it
        // may be let through: a burst of ALIAS_BURST at once must mostly be refused. With a zone
        // of its own (burst 400) none would be.
        List<Http.Response> aliased = flood(UNTRUSTED_SOURCE, Stack.api().replace("/api/v1.0", "/api/v1"), ALIAS_BURST);
        assertThat(aliased.stream().filter(r -> r.status() == 429).count()).as("the /api/v1 alias shares the budget")
                .isGreaterThan(ALIAS_BURST / 2);
        // Reads are not limited.
        assertThat(Http.call("GET", Stack.api() + "/categories").from(UNTRUSTED_SOURCE).send().status()).isEqualTo(200);
    }

    @Test
    void aTrustedLoadGeneratorIsNotCutOff() throws Exception {
        List<Http.Response> responses = flood("127.0.0.1");
        assertThat(responses.stream().filter(r -> r.status() == 429).count()).isZero();
    }

    private static List<Http.Response> flood(String source) throws Exception {
        return flood(source, Stack.api(), FLOOD);
    }

    private static List<Http.Response> flood(String source, String api, int count) throws Exception {
        List<Http.Response> responses = Collections.synchronizedList(new ArrayList<>());
        try (ExecutorService pool = Executors.newFixedThreadPool(32)) {
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                calls.add(pool.submit(() -> responses.add(
                        Http.call("POST", api + "/auth/login").from(source).json("{}").send())));
            }
            for (Future<?> f : calls) {
                f.get();
            }
        }
        return responses;
    }
}
