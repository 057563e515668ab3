package dev.hanwiki.cdc;

/** A record that cannot be understood as a posts change event; it is skipped and counted. */
final class MalformedChangeException extends Exception {

    MalformedChangeException(String message) {
        super(message);
    }

    MalformedChangeException(String message, Throwable cause) {
        super(message, cause);
    }
}
