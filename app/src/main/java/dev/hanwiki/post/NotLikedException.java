package dev.hanwiki.post;

import dev.hanwiki.platform.ApiException;
import org.springframework.http.HttpStatus;

class NotLikedException extends ApiException {

    NotLikedException(long id) {
        super(HttpStatus.NOT_FOUND, "NOT_LIKED", "You do not like post " + id + ".");
    }
}
