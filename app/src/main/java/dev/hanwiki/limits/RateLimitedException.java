package dev.hanwiki.limits;

import dev.hanwiki.platform.ProblemCodes;

import dev.hanwiki.platform.ApiException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;

/**
 * 429 with {@code Retry-After} (whole seconds, rounded up) and the same figure as
 * {@code retryAfterSeconds} in the problem body, for clients that do not read headers.
 */
public final class RateLimitedException extends ApiException {

    /** Failed logins for this account (or from this address for it) are throttled. */
    public static final String LOGIN_THROTTLED = ProblemCodes.LOGIN_THROTTLED;
    /** This user wrote more than its limit allows. */
    public static final String WRITE_RATE_LIMITED = ProblemCodes.WRITE_RATE_LIMITED;

    private final Duration retryAfter;

    RateLimitedException(String code, String detail, Duration wait) {
        this(code, detail, seconds(wait));
    }

    private RateLimitedException(String code, String detail, long seconds) {
        super(HttpStatus.TOO_MANY_REQUESTS, code, detail.replace("{s}", Long.toString(seconds)),
                Map.of("retryAfterSeconds", seconds));
        this.retryAfter = Duration.ofSeconds(seconds);
    }

    private static long seconds(Duration wait) {
        return Math.max(1, (wait.toMillis() + 999) / 1000);
    }

    @Override
    public Optional<Duration> retryAfter() {
        return Optional.of(retryAfter);
    }
}
