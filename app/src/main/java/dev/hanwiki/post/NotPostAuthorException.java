package dev.hanwiki.post;

import dev.hanwiki.platform.ApiException;
import org.springframework.http.HttpStatus;

/** Only a post's author may edit or delete it. */
class NotPostAuthorException extends ApiException {

    NotPostAuthorException(long id) {
        super(HttpStatus.FORBIDDEN, "NOT_POST_AUTHOR", "Only the author of post " + id + " may change it.");
    }
}
