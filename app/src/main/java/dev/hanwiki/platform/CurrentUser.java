package dev.hanwiki.platform;

import java.util.Optional;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;

/** Who is making the current request, as the token filter established it. */
@Component
public class CurrentUser {

    /** @return the signed-in caller, or empty for an anonymous request */
    public Optional<AuthenticatedUser> find() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication != null && authentication.getPrincipal() instanceof AuthenticatedUser user) {
            return Optional.of(user);
        }
        return Optional.empty();
    }

    /**
     * The security chain already refuses anonymous writes; this guards the service layer too,
     * so a route that was forgotten in the chain still cannot act as nobody.
     */
    public AuthenticatedUser require() {
        return find().orElseThrow(AuthenticationRequiredException::new);
    }
}
