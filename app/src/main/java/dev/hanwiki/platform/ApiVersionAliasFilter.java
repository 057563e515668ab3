package dev.hanwiki.platform;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * {@code /api/v1/...} is an alias of {@code /api/v1.0/...} (architecture §4, ADR 0070). The
 * request is rewritten in place, before every other filter, so that everything downstream sees
 * one path: Spring Security's matchers, the controllers, the problem {@code instance}. It is
 * not a forward: a forwarded request would meet the security chain as a FORWARD dispatch,
 * which is permitted without a user (error pages and forwards are rendered for requests that
 * were already judged), so an alias that forwarded before the chain ran would skip it.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class ApiVersionAliasFilter extends OncePerRequestFilter {

    static final String ALIAS = "/api/v1";
    static final String CANONICAL = "/api/v1.0";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String contextPath = request.getContextPath();
        String uri = request.getRequestURI();
        if (!isAlias(uri.substring(Math.min(contextPath.length(), uri.length())))) {
            chain.doFilter(request, response);
            return;
        }
        // A path parsed (and cached) from the alias would be matched instead of the rewritten one.
        ServletRequestPathUtils.clearParsedRequestPath(request);
        chain.doFilter(new CanonicalPath(request, contextPath), response);
    }

    /** {@code /api/v1} itself or anything under {@code /api/v1/}, but not {@code /api/v10} or {@code /api/v1.0}. */
    static boolean isAlias(String path) {
        return path != null && path.startsWith(ALIAS) && (path.length() == ALIAS.length() || path.charAt(ALIAS.length()) == '/');
    }

    static String canonical(String path) {
        return isAlias(path) ? CANONICAL + path.substring(ALIAS.length()) : path;
    }

    /** The same request under {@code /api/v1.0}: URI, URL and whichever of servlet path and path info holds it. */
    private static final class CanonicalPath extends HttpServletRequestWrapper {

        private final String requestUri;

        CanonicalPath(HttpServletRequest request, String contextPath) {
            super(request);
            this.requestUri = contextPath + canonical(request.getRequestURI().substring(contextPath.length()));
        }

        @Override
        public String getRequestURI() {
            return requestUri;
        }

        @Override
        public StringBuffer getRequestURL() {
            StringBuffer url = super.getRequestURL();
            String original = super.getRequestURI();
            int at = url.length() - original.length();
            return at >= 0 && url.substring(at).equals(original)
                    ? url.replace(at, url.length(), requestUri)
                    : url;
        }

        @Override
        public String getServletPath() {
            return canonical(super.getServletPath());
        }

        @Override
        public String getPathInfo() {
            return canonical(super.getPathInfo());
        }
    }
}
