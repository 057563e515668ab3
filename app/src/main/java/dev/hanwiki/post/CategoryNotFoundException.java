package dev.hanwiki.post;

import dev.hanwiki.platform.ApiException;
import org.springframework.http.HttpStatus;

/** A write referenced a category that does not exist: the client's input is wrong, hence 400. */
class CategoryNotFoundException extends ApiException {

    CategoryNotFoundException(long id) {
        super(HttpStatus.BAD_REQUEST, "CATEGORY_NOT_FOUND", "Category " + id + " does not exist.");
    }
}
