package dev.hanwiki.post;

import dev.hanwiki.platform.ApiException;
import org.springframework.http.HttpStatus;

/** An edit that does not say which version it started from could silently overwrite another. */
class VersionRequiredException extends ApiException {

    VersionRequiredException() {
        super(HttpStatus.PRECONDITION_REQUIRED, "VERSION_REQUIRED",
                "Say which version the edit started from: a \"version\" field or an If-Match header.");
    }
}
