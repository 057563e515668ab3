package dev.hanwiki.auth;

import dev.hanwiki.platform.ApiException;
import dev.hanwiki.platform.ProblemCodes;
import org.springframework.http.HttpStatus;

/**
 * The blacklist could not be read or written; callers must fail closed. Should it escape (a
 * logout whose write fails after its token was checked), it is a 503 AUTH_UNAVAILABLE like
 * every other blacklist outage.
 */
final class BlacklistUnavailableException extends ApiException {

    /** @param cause the client's failure, or null when the blacklist is known to be unreachable */
    BlacklistUnavailableException(Throwable cause) {
        super(HttpStatus.SERVICE_UNAVAILABLE, ProblemCodes.AUTH_UNAVAILABLE,
                "Signed-in calls are unavailable right now. Please retry shortly.");
        if (cause != null) {
            initCause(cause);
        }
    }
}
