package dev.hanwiki.platform;

import java.time.Duration;
import java.util.Optional;
import org.springframework.http.HttpStatus;

/**
 * The primary did not answer a write within the write timeout (a full disk holds every commit,
 * a hung or cut-off server answers nothing). The node gave up waiting, but the server may still
 * commit the write when it recovers: the client must read before it retries.
 */
public class WriteNotConfirmedException extends ApiException {

    WriteNotConfirmedException(Duration timeout, Throwable cause) {
        super(HttpStatus.SERVICE_UNAVAILABLE, ProblemCodes.WRITE_NOT_CONFIRMED,
                "The database did not confirm the write within " + timeout.toMillis()
                        + " ms. It may still be saved: read it before you retry.");
        initCause(cause);
    }

    @Override
    public Optional<Duration> retryAfter() {
        return Optional.of(Duration.ofSeconds(5));
    }

    /** The primary's stall, not this node's load: the overload limiter must not shrink for it. */
    @Override
    public boolean saysNothingAboutLoad() {
        return true;
    }
}
