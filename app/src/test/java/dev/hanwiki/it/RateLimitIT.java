package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** nginx limits login and sign-up attempts per client address: past the burst, 429 with a problem body. */
class RateLimitIT {

    @Test
    void aBurstOfLoginsIsCutOffWithTooManyRequests() {
        List<Http.Response> responses = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            responses.add(Http.post(Stack.api() + "/auth/login", Map.of("username", "nobody" + i, "password", "Wrong-pass-1")));
        }

        List<Http.Response> limited = responses.stream().filter(r -> r.status() == 429).toList();
        assertThat(limited).as("refused attempts").isNotEmpty();
        assertThat(responses.stream().filter(r -> r.status() != 429 && r.status() != 401)).isEmpty();
        Http.Response tooMany = limited.get(0);
        assertThat(tooMany.header("Content-Type")).startsWith("application/problem+json");
        assertThat(tooMany.json().path("code").asString()).isEqualTo("TOO_MANY_REQUESTS");
        assertThat(tooMany.json().path("status").asInt()).isEqualTo(429);
        assertThat(tooMany.header("Retry-After")).isNotEmpty();

        var signup = Http.post(Stack.api() + "/auth/signup", Map.of("username", "ratelimit" + Users.random(5),
                "nickname", "rl" + Users.random(5), "password", "Secret-123"));
        assertThat(signup.status()).as("sign-up shares the budget").isEqualTo(429);
        var aliased = Http.post(Stack.api().replace("/api/v1.0", "/api/v1") + "/auth/login",
                Map.of("username", "nobody", "password", "Wrong-pass-1"));
        assertThat(aliased.status()).as("the /api/v1 alias shares the budget").isEqualTo(429);
        // Reads are not limited.
        assertThat(Http.get(Stack.api() + "/categories").status()).isEqualTo(200);
    }
}
