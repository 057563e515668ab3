package dev.hanwiki.auth;

import dev.hanwiki.platform.ApiException;
import org.springframework.http.HttpStatus;

/** Unknown username and wrong password look the same, so that logins cannot probe for accounts. */
class InvalidCredentialsException extends ApiException {

    InvalidCredentialsException() {
        super(HttpStatus.UNAUTHORIZED, "INVALID_CREDENTIALS", "The username or password is wrong.");
    }
}
