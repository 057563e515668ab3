package dev.hanwiki.post;

import dev.hanwiki.platform.ApiException;
import org.springframework.http.HttpStatus;

/** The post does not exist or was deleted; both look the same to clients. */
class PostNotFoundException extends ApiException {

    PostNotFoundException(long id) {
        super(HttpStatus.NOT_FOUND, "POST_NOT_FOUND", "Post " + id + " does not exist.");
    }
}
