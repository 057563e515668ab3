package dev.hanwiki.platform;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.WebUtils;

/**
 * A state change authenticated by the {@code token} cookie must be a request a cross-site page
 * cannot make without a CORS preflight (which this service never grants): a JSON body
 * ({@code Content-Type: application/json} or {@code +json}) or an {@code X-Requested-With}
 * header (ADR 0088). So a form on another site cannot like, unlike, delete or log out in the
 * name of a signed-in reader, bodiless calls included; SameSite=Lax is a second line, not the
 * only one. Calls with {@code Authorization: Bearer} are not affected (a browser never adds
 * that header cross-site); neither are reads, nor requests without the cookie. Refused: 403
 * CROSS_SITE_REQUEST.
 */
final class CrossSiteWriteGuard extends OncePerRequestFilter {

    static final String CODE = ProblemCodes.CROSS_SITE_REQUEST;
    static final String HEADER = "X-Requested-With";
    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (SAFE.contains(request.getMethod()) || !cookieAuthenticated(request) || nonSimple(request)) {
            chain.doFilter(request, response);
            return;
        }
        response.setStatus(403);
        response.setContentType(ProblemBodies.MEDIA_TYPE);
        response.getOutputStream().write(ProblemBodies.json(403, CODE,
                "A change made with the sign-in cookie must send JSON (Content-Type: application/json) or an "
                        + HEADER + " header.", request.getRequestURI()));
    }

    private static boolean cookieAuthenticated(HttpServletRequest request) {
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        boolean bearer = authorization != null && authorization.regionMatches(true, 0, "bearer ", 0, 7);
        return !bearer && WebUtils.getCookie(request, TokenTransport.COOKIE) != null;
    }

    private static boolean nonSimple(HttpServletRequest request) {
        String requestedWith = request.getHeader(HEADER);
        if (requestedWith != null && !requestedWith.isBlank()) {
            return true;
        }
        String contentType = request.getHeader(HttpHeaders.CONTENT_TYPE);
        if (contentType == null) {
            return false;
        }
        try {
            MediaType type = MediaType.parseMediaType(contentType);
            return "application".equals(type.getType())
                    && ("json".equals(type.getSubtype()) || type.getSubtype().endsWith("+json"));
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }
}
