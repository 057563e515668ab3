package dev.hanwiki.platform;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;

/**
 * Base of every domain exception: carries the HTTP status and the stable machine {@code code}
 * that {@link ProblemAdvice} puts into the problem+json body. The message becomes the
 * {@code detail}, so it must be safe to show to a client. Extra members (such as the current
 * version of a post after an edit conflict) go into {@link #properties()}.
 */
public abstract class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final String code;
    private final Map<String, Object> properties;

    protected ApiException(HttpStatus status, String code, String detail) {
        this(status, code, detail, Map.of());
    }

    protected ApiException(HttpStatus status, String code, String detail, Map<String, Object> properties) {
        super(detail);
        this.status = status;
        this.code = code;
        this.properties = Map.copyOf(new LinkedHashMap<>(properties));
    }

    public HttpStatus status() {
        return status;
    }

    public String code() {
        return code;
    }

    /** Additional problem members, beside {@code status}, {@code title}, {@code detail} and {@code code}. */
    public Map<String, Object> properties() {
        return properties;
    }

    /**
     * True when the failure was a dependency's, not this node's load (a primary holding its
     * commits): the overload limiter then neither samples the request's time nor shrinks for
     * its 503 ({@link OverloadFilter}).
     */
    public boolean saysNothingAboutLoad() {
        return false;
    }

    /** When the same request may succeed: sent as {@code Retry-After} (whole seconds). */
    public Optional<Duration> retryAfter() {
        return Optional.empty();
    }
}
