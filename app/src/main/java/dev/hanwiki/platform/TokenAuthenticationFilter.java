package dev.hanwiki.platform;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates a request from its token, if it carries one. A token that is refused, or that
 * cannot be checked because the blacklist is down, never fails the request here: the request
 * simply stays anonymous, with the reason kept for the entry point. So a stale cookie does not
 * break public reads, while any call that needs a user is answered with that reason (401, or
 * 503 when the blacklist is unreachable: fail closed).
 */
final class TokenAuthenticationFilter extends OncePerRequestFilter {

    static final String REFUSAL = TokenAuthenticationFilter.class.getName() + ".refusal";
    private static final List<SimpleGrantedAuthority> USER = List.of(new SimpleGrantedAuthority("ROLE_USER"));

    private final ObjectProvider<TokenAuthenticator> authenticator;

    TokenAuthenticationFilter(ObjectProvider<TokenAuthenticator> authenticator) {
        this.authenticator = authenticator;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String token = TokenTransport.resolve(request);
        if (token != null) {
            TokenAuthenticator verifier = authenticator.getIfAvailable();
            TokenCheck check = verifier == null
                    ? new TokenCheck.Rejected(ProblemCodes.INVALID_TOKEN, "This node does not accept tokens.")
                    : verifier.check(token);
            if (check instanceof TokenCheck.Valid(AuthenticatedUser user)) {
                SecurityContext context = SecurityContextHolder.createEmptyContext();
                context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(user, null, USER));
                SecurityContextHolder.setContext(context);
            } else {
                request.setAttribute(REFUSAL, check);
            }
        }
        chain.doFilter(request, response);
    }
}
