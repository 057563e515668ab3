package dev.hanwiki.auth;

import dev.hanwiki.platform.ApiException;
import org.springframework.http.HttpStatus;

class UsernameTakenException extends ApiException {

    UsernameTakenException() {
        super(HttpStatus.CONFLICT, "USERNAME_TAKEN", "This username is already taken.");
    }
}
