package dev.hanwiki.limits;

import dev.hanwiki.platform.ApiException;
import dev.hanwiki.platform.ProblemCodes;
import java.time.Duration;
import java.util.Optional;
import org.springframework.http.HttpStatus;

/**
 * The limit store (the auth Redis) could not answer: the attempt is refused, never let through
 * unchecked (ADR 0012's fail-closed rule, which already refuses every signed-in call then).
 */
final class LimitsUnavailableException extends ApiException {

    LimitsUnavailableException(Throwable cause) {
        super(HttpStatus.SERVICE_UNAVAILABLE, ProblemCodes.AUTH_UNAVAILABLE,
                "Sign-in and changes are unavailable right now. Please retry shortly.");
        if (cause != null) {
            initCause(cause);
        }
    }

    @Override
    public Optional<Duration> retryAfter() {
        return Optional.of(Duration.ofSeconds(5));
    }
}
