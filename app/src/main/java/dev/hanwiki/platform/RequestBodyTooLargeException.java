package dev.hanwiki.platform;

import java.io.IOException;

/**
 * Thrown by the bounded request stream. It is an IOException because that is what a body
 * reader may throw; {@link ProblemAdvice} finds it in the cause chain and answers 413.
 */
final class RequestBodyTooLargeException extends IOException {

    RequestBodyTooLargeException(long limit) {
        super("Request body exceeds " + limit + " bytes");
    }

    static boolean isCauseOf(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof RequestBodyTooLargeException) {
                return true;
            }
            if (t.getCause() == t) {
                return false;
            }
        }
        return false;
    }
}
