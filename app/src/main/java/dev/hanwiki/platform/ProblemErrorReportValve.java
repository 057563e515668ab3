package dev.hanwiki.platform;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

/**
 * Tomcat's error report, as problem+json instead of its HTML page. Tomcat uses this valve for
 * errors it detects before any servlet runs: a request line with raw non-ASCII bytes or
 * illegal characters, a malformed URI, headers too large for its buffers.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    /** What a client can do about it; nothing from the failed request is echoed back. */
    private static String detail(int status) {
        return switch (status) {
            case 400 -> "The request could not be read. URLs must be ASCII: percent-encode other characters as UTF-8.";
            case 414 -> "The request URL is too long.";
            case 431 -> "The request headers are too large.";
            default -> null;
        };
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(true);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        try {
            byte[] body = ProblemBodies.json(status, null, detail(status), null);
            response.setContentType(ProblemBodies.MEDIA_TYPE);
            response.setContentLength(body.length);
            try (OutputStream out = response.getOutputStream()) {
                out.write(body);
            }
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            // The client is gone or the response is unusable; there is nobody left to tell.
        }
    }
}
