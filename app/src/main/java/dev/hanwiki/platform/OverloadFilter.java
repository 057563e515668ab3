package dev.hanwiki.platform;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Admits a request through the {@link OverloadLimiter} or sheds it at once: 503 problem+json
 * with code {@code OVERLOADED} and {@code Retry-After} (also as {@code retryAfterSeconds}).
 * It runs right after the request id and the HTTP metrics filters, so a shed request has an
 * id and is counted as the 503 it is, and before anything that costs: security (a blacklist
 * lookup), body reading, controllers and the connection pools. The actuator is never limited
 * (on the management port it does not pass here at all).
 */
final class OverloadFilter extends OncePerRequestFilter {

    static final String DETAIL = "The service is over its capacity right now. Please retry shortly.";
    /**
     * Request attribute: the answer was a dependency's failure that says nothing about this
     * node's load (a write the primary held: ADR 0096), so the request is released unsampled.
     */
    static final String NOT_A_LOAD_SIGNAL = OverloadFilter.class.getName() + ".notALoadSignal";

    private final OverloadLimiter limiter;
    private final long retryAfterSeconds;

    OverloadFilter(OverloadLimiter limiter, long retryAfterSeconds) {
        this.limiter = limiter;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    static OverloadLimiter.Partition partitionOf(HttpServletRequest request) {
        String path = pathOf(request);
        if (path.equals("/internal") || path.startsWith("/internal/")) {
            return OverloadLimiter.Partition.INTERNAL;
        }
        return switch (request.getMethod()) {
            case "GET", "HEAD", "OPTIONS" -> OverloadLimiter.Partition.READ;
            default -> OverloadLimiter.Partition.WRITE;
        };
    }

    private static String pathOf(HttpServletRequest request) {
        String uri = request.getRequestURI();
        String context = request.getContextPath();
        return context != null && !context.isEmpty() && uri.startsWith(context) ? uri.substring(context.length()) : uri;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = pathOf(request);
        return path.equals("/actuator") || path.startsWith("/actuator/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Optional<OverloadLimiter.Permit> slot = limiter.acquire(partitionOf(request));
        if (slot.isEmpty()) {
            shed(request, response);
            return;
        }
        OverloadLimiter.Permit permit = slot.get();
        try {
            chain.doFilter(request, response);
        } catch (IOException | ServletException | RuntimeException | Error e) {
            permit.ignore();
            throw e;
        }
        if (request.getAttribute(NOT_A_LOAD_SIGNAL) != null) {
            permit.ignore();
        } else if (response.getStatus() == HttpServletResponse.SC_SERVICE_UNAVAILABLE) {
            permit.dropped();
        } else {
            permit.success();
        }
    }

    private void shed(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        response.setHeader("Retry-After", Long.toString(retryAfterSeconds));
        response.setContentType(ProblemBodies.MEDIA_TYPE);
        response.getOutputStream().write(ProblemBodies.json(503, ProblemCodes.OVERLOADED, DETAIL,
                request.getRequestURI(), Map.of("retryAfterSeconds", retryAfterSeconds)));
    }
}
