package dev.hanwiki.platform;

import org.springframework.http.HttpStatus;

/** A call that needs a signed-in user was made without one: 401 AUTHENTICATION_REQUIRED. */
class AuthenticationRequiredException extends ApiException {

    AuthenticationRequiredException() {
        super(HttpStatus.UNAUTHORIZED, ProblemCodes.AUTHENTICATION_REQUIRED, "Sign in to do this.");
    }
}
