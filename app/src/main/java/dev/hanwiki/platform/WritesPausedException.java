package dev.hanwiki.platform;

import java.time.Duration;
import java.util.Optional;
import org.springframework.http.HttpStatus;

/**
 * The node refused a write without trying it: the primary did not answer its last writes in
 * time, so writes pause for a moment ({@link PrimaryWrites}' breaker). Nothing was written.
 */
public class WritesPausedException extends ApiException {

    private final Duration retryAfter;

    WritesPausedException(Duration retryAfter) {
        super(HttpStatus.SERVICE_UNAVAILABLE, ProblemCodes.DATABASE_UNAVAILABLE,
                "The database did not answer the last writes; writes are paused for a moment. Nothing was saved. Please retry.");
        this.retryAfter = retryAfter;
    }

    @Override
    public Optional<Duration> retryAfter() {
        return Optional.of(retryAfter);
    }

    /** The primary's stall, not this node's load: the overload limiter must not shrink for it. */
    @Override
    public boolean saysNothingAboutLoad() {
        return true;
    }
}
