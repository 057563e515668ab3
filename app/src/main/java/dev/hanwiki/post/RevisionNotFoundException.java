package dev.hanwiki.post;

import dev.hanwiki.platform.ApiException;
import org.springframework.http.HttpStatus;

class RevisionNotFoundException extends ApiException {

    RevisionNotFoundException(long postId, long version) {
        super(HttpStatus.NOT_FOUND, "REVISION_NOT_FOUND", "Post " + postId + " has no revision " + version + ".");
    }
}
