package dev.hanwiki.post;

import dev.hanwiki.platform.ApiException;
import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * The edit started from a version that is no longer current: someone saved in between. The
 * problem carries {@code currentVersion} so the client can fetch it, merge and retry.
 */
class VersionConflictException extends ApiException {

    VersionConflictException(long id, long expected, long current) {
        super(HttpStatus.CONFLICT, "VERSION_CONFLICT",
                "Post " + id + " is at version " + current + ", not " + expected + ": it was changed since you loaded it.",
                Map.of("currentVersion", current));
    }
}
