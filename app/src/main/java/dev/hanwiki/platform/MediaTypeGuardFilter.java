package dev.hanwiki.platform;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses requests whose {@code Content-Type} or {@code Accept} header Spring MVC could not even
 * parse. Left alone, an unparseable Accept fails again while the error itself is written (an
 * empty 406), and a wildcard Content-Type ({@code *}{@code /*}) fails an assertion deep in body
 * reading (a 500). Answered here, before anything else, as 406 or 415 problems.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class MediaTypeGuardFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String contentType = request.getHeader(HttpHeaders.CONTENT_TYPE);
        if (contentType != null && !isConcrete(contentType)) {
            refuse(request, response, 415, "Content-Type must be a concrete media type, e.g. application/json.");
            return;
        }
        List<String> accept = Collections.list(request.getHeaders(HttpHeaders.ACCEPT));
        if (!accept.isEmpty() && !isParseable(accept)) {
            refuse(request, response, 406, "The Accept header could not be read; this service answers application/json.");
            return;
        }
        chain.doFilter(request, response);
    }

    private static boolean isConcrete(String contentType) {
        try {
            MediaType type = MediaType.parseMediaType(contentType);
            return !type.isWildcardType() && !type.isWildcardSubtype();
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }

    private static boolean isParseable(List<String> accept) {
        try {
            MediaType.parseMediaTypes(accept);
            return true;
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }

    private static void refuse(HttpServletRequest request, HttpServletResponse response, int status, String detail)
            throws IOException {
        response.setStatus(status);
        response.setContentType(ProblemBodies.MEDIA_TYPE);
        response.getOutputStream().write(ProblemBodies.json(status, null, detail, request.getRequestURI()));
    }
}
