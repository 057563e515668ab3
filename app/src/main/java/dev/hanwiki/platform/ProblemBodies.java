package dev.hanwiki.platform;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.json.JsonMapper;

/**
 * Problem bodies for the places that run outside Spring MVC, where {@link ProblemAdvice} cannot
 * help: security filters, the servlet error page and Tomcat's own error valve. They carry the
 * same members as the advice's responses ({@code type} is left out, as there, because it is
 * always {@code about:blank}), {@code message} included: the same text as {@code detail}, for
 * clients that read that name (architecture §4), and the {@code requestId} of {@link RequestIdFilter}.
 */
final class ProblemBodies {

    static final String MEDIA_TYPE = "application/problem+json";
    static final String GENERIC_DETAIL = "An unexpected error occurred.";
    /** The member that repeats {@code detail}, for older clients. */
    static final String MESSAGE = "message";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ProblemBodies() {
    }

    /**
     * @param code   null derives it from the status
     * @param detail must be safe to show; null means the title (or a generic text for a 5xx)
     */
    static byte[] json(int status, String code, String detail, String instance) {
        return json(status, code, detail, instance, Map.of());
    }

    /** As above, with extra members after {@code code} (e.g. {@code retryAfterSeconds}). */
    static byte[] json(int status, String code, String detail, String instance, Map<String, Object> extra) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("title", title(status));
        body.put("status", status);
        String text = detail != null ? detail : status >= 500 ? GENERIC_DETAIL : title(status);
        body.put("detail", text);
        body.put(MESSAGE, text);
        if (instance != null) {
            body.put("instance", instance);
        }
        body.put("code", code == null ? ProblemCodes.forStatus(status) : code);
        body.putAll(extra);
        String requestId = RequestIdFilter.current();
        if (requestId != null) {
            body.put("requestId", requestId);
        }
        return JSON.writeValueAsBytes(body);
    }

    static String title(int status) {
        HttpStatus known = HttpStatus.resolve(status);
        return known == null ? "HTTP " + status : known.getReasonPhrase();
    }
}
