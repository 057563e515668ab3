package dev.hanwiki.auth;

import dev.hanwiki.platform.ProblemCodes;
import dev.hanwiki.platform.TokenAuthenticator;
import dev.hanwiki.platform.TokenCheck;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * A token is accepted when it verifies and its id is not on the blacklist. The blacklist is
 * consulted on every authenticated call, on every node, so a logout is effective everywhere at
 * once. When it cannot be consulted the answer is "unavailable", never "valid".
 */
@Component
class BlacklistTokenAuthenticator implements TokenAuthenticator, MeterBinder {

    private final JwtTokens tokens;
    private final TokenBlacklist blacklist;
    private final Duration lifetime;
    private final AtomicLong failClosed = new AtomicLong();

    BlacklistTokenAuthenticator(JwtTokens tokens, TokenBlacklist blacklist, AuthSettings settings) {
        this.tokens = tokens;
        this.blacklist = blacklist;
        this.lifetime = settings.tokenLifetime();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("hanwiki.auth.blacklist.unavailable", failClosed, AtomicLong::get)
                .description("Token checks refused because the blacklist could not be consulted")
                .register(registry);
    }

    @Override
    public TokenCheck check(String token) {
        TokenCheck verified = tokens.verify(token);
        if (!(verified instanceof TokenCheck.Valid valid)) {
            return verified;
        }
        try {
            // Tokens are issued with one fixed lifetime, so their expiry names their issue second.
            Instant issuedAt = valid.user().expiresAt().minus(lifetime);
            if (blacklist.isRevoked(valid.user().tokenId(), valid.user().id(), issuedAt)) {
                return new TokenCheck.Rejected(ProblemCodes.TOKEN_REVOKED, "The token was revoked by a logout. Sign in again.");
            }
        } catch (BlacklistUnavailableException e) {
            failClosed.incrementAndGet();
            return new TokenCheck.Unavailable("Signed-in calls are unavailable right now. Please retry shortly.");
        }
        return valid;
    }
}
