package dev.hanwiki.platform;

import org.springframework.http.HttpStatus;

/** Input that passed binding but breaks a rule (paging window, blank query, ...): 400 INVALID_INPUT. */
public class InvalidInputException extends ApiException {

    public InvalidInputException(String detail) {
        super(HttpStatus.BAD_REQUEST, ProblemCodes.INVALID_INPUT, detail);
    }
}
