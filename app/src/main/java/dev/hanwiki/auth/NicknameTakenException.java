package dev.hanwiki.auth;

import dev.hanwiki.platform.ApiException;
import org.springframework.http.HttpStatus;

class NicknameTakenException extends ApiException {

    NicknameTakenException() {
        super(HttpStatus.CONFLICT, "NICKNAME_TAKEN", "This nickname is already taken.");
    }
}
