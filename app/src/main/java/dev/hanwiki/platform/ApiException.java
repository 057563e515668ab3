package dev.hanwiki.platform;

import org.springframework.http.HttpStatus;

/**
 * Base of every domain exception: carries the HTTP status and the stable machine {@code code}
 * that {@link ProblemAdvice} puts into the problem+json body. The message becomes the
 * {@code detail}, so it must be safe to show to a client.
 */
public abstract class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final String code;

    protected ApiException(HttpStatus status, String code, String detail) {
        super(detail);
        this.status = status;
        this.code = code;
    }

    public HttpStatus status() {
        return status;
    }

    public String code() {
        return code;
    }
}
