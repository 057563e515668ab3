package dev.hanwiki.platform;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.UUID;
import java.util.regex.Pattern;
import org.slf4j.MDC;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * One id per request, end to end: nginx assigns it and passes it as {@code X-Request-Id}; a
 * request that reaches the node directly gets one here. It is in the logging MDC
 * ({@code requestId}) for every log line of the request (the JSON log lines carry it), in the
 * response's {@code X-Request-Id} header and in every problem body ({@code requestId}).
 * First of all filters, so the security filters' log lines and problems carry it too; it also
 * runs on the error dispatch (same request, same id).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class RequestIdFilter extends OncePerRequestFilter {

    static final String HEADER = "X-Request-Id";
    static final String MDC_KEY = "requestId";
    private static final String ATTRIBUTE = RequestIdFilter.class.getName();
    /** nginx's $request_id is 32 hex digits; anything id-like and short is kept, nothing else. */
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String id = (String) request.getAttribute(ATTRIBUTE);
        if (id == null) {
            String given = request.getHeader(HEADER);
            id = given != null && VALID.matcher(given).matches() ? given : UUID.randomUUID().toString().replace("-", "");
            request.setAttribute(ATTRIBUTE, id);
        }
        String outer = MDC.get(MDC_KEY);
        MDC.put(MDC_KEY, id);
        response.setHeader(HEADER, id);
        try {
            chain.doFilter(request, response);
        } finally {
            if (outer == null) {
                MDC.remove(MDC_KEY);
            } else {
                MDC.put(MDC_KEY, outer);
            }
        }
    }

    /** The id of the request this thread serves, or null outside a request. */
    static String current() {
        return MDC.get(MDC_KEY);
    }
}
