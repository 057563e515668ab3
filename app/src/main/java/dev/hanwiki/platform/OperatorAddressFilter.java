package dev.hanwiki.platform;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Operator paths ({@code /actuator/*} on the management port, {@code /internal/*}) answer only
 * connections from an operator address ({@link ExposureSettings#operators()}): anyone else gets
 * a 403 problem before any token is looked at (a token would not help: these are not user calls).
 * Part of the security filter chain, so it guards the management port too.
 */
final class OperatorAddressFilter extends OncePerRequestFilter {

    private final ClientAddresses addresses;

    OperatorAddressFilter(ClientAddresses addresses) {
        this.addresses = addresses;
    }

    static boolean isOperatorPath(String path) {
        return path.equals("/actuator") || path.startsWith("/actuator/") || path.equals("/internal") || path.startsWith("/internal/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (isOperatorPath(request.getRequestURI()) && !addresses.fromOperator(request)) {
            response.setStatus(403);
            response.setContentType(ProblemBodies.MEDIA_TYPE);
            response.getOutputStream().write(ProblemBodies.json(403, ProblemCodes.FORBIDDEN,
                    "Operator endpoints answer the node's own host and the monitoring host only.", request.getRequestURI()));
            return;
        }
        chain.doFilter(request, response);
    }
}
