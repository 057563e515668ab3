package dev.hanwiki.autocomplete;

import dev.hanwiki.platform.ApiException;
import dev.hanwiki.platform.ProblemCodes;
import org.springframework.http.HttpStatus;

/** A rebuild that cannot start now (one is running, or the index is not ready): 409 CONFLICT. */
class RebuildRefusedException extends ApiException {

    RebuildRefusedException(String detail) {
        super(HttpStatus.CONFLICT, ProblemCodes.CONFLICT, detail);
    }
}
