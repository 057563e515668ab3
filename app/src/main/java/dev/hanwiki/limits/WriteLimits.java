package dev.hanwiki.limits;

import dev.hanwiki.platform.ClientAddresses;
import dev.hanwiki.platform.CurrentUser;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Write limits per user (ADR 0086): before a create, edit, delete, like or unlike reaches its
 * controller, one token is taken from the user's bucket for that kind of write in the auth
 * Redis, shared by both nodes. An empty bucket is a 429 WRITE_RATE_LIMITED with Retry-After;
 * a refused write changes nothing. Anonymous requests never get here with a write (the security
 * chain refuses them first); trusted load generators are exempt.
 */
@Component
class WriteLimits {

    private final LimitStore store;
    private final LimitSettings.Writes settings;
    private final CurrentUser currentUser;
    private final TrustedAddresses trusted;
    private final ClientAddresses addresses;

    WriteLimits(LimitStore store, LimitSettings settings, CurrentUser currentUser, TrustedAddresses trusted,
            ClientAddresses addresses) {
        this.store = store;
        this.settings = settings.writes();
        this.currentUser = currentUser;
        this.trusted = trusted;
        this.addresses = addresses;
    }

    /** Called before the handler of every API request; throws when the write is over its limit. */
    boolean preHandle(HttpServletRequest request) {
        if (!settings.enabled()) {
            return true;
        }
        Optional<WriteAction> action = actionOf(request.getMethod(),
                request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE) instanceof String p ? p : null);
        if (action.isEmpty()) {
            return true;
        }
        var user = currentUser.find();
        if (user.isEmpty() || trusted.contains(addresses.client(request))) {
            return true;
        }
        LimitSettings.Bucket bucket = settings.of(action.get());
        Duration wait = store.bucket(key(action.get(), user.get().id()), bucket, LimitStore.TAKE);
        if (!wait.isZero()) {
            throw new RateLimitedException(RateLimitedException.WRITE_RATE_LIMITED,
                    "Too many " + action.get().name().toLowerCase(Locale.ROOT) + " requests from this account ("
                            + bucket.burst() + " at once, then one every " + bucket.every().toSeconds()
                            + " s). Try again in {s} seconds.", wait);
        }
        return true;
    }

    /** Which limited write a mapped route is; the version prefix of the path does not matter. */
    static Optional<WriteAction> actionOf(String method, String pattern) {
        if (pattern == null) {
            return Optional.empty();
        }
        if (pattern.endsWith("/posts/{id}/like") && ("POST".equals(method) || "DELETE".equals(method))) {
            return Optional.of(WriteAction.LIKE);
        }
        if (pattern.endsWith("/posts") && "POST".equals(method)) {
            return Optional.of(WriteAction.POST);
        }
        if (pattern.endsWith("/posts/{id}")) {
            return switch (method) {
                case "PUT", "PATCH" -> Optional.of(WriteAction.EDIT);
                case "DELETE" -> Optional.of(WriteAction.DELETE);
                default -> Optional.empty();
            };
        }
        return Optional.empty();
    }

    static String key(WriteAction action, long userId) {
        return "wl:" + action.name().toLowerCase(Locale.ROOT) + ":" + userId;
    }
}
