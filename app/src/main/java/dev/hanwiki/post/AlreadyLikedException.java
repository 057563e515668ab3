package dev.hanwiki.post;

import dev.hanwiki.platform.ApiException;
import org.springframework.http.HttpStatus;

class AlreadyLikedException extends ApiException {

    AlreadyLikedException(long id) {
        super(HttpStatus.CONFLICT, "ALREADY_LIKED", "You already like post " + id + ".");
    }
}
