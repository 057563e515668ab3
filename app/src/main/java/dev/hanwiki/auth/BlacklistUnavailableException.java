package dev.hanwiki.auth;

/** The blacklist could not be read or written; callers must fail closed. */
final class BlacklistUnavailableException extends RuntimeException {

    BlacklistUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
