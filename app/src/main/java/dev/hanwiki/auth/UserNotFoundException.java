package dev.hanwiki.auth;

import dev.hanwiki.platform.ApiException;
import org.springframework.http.HttpStatus;

/** A valid token names a user that does not exist (a rebuilt database): the token is useless. */
class UserNotFoundException extends ApiException {

    UserNotFoundException() {
        super(HttpStatus.UNAUTHORIZED, "INVALID_TOKEN", "The token names no known user. Sign in again.");
    }
}
