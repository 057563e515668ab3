package dev.hanwiki.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.hanwiki.platform.AuthenticatedUser;
import dev.hanwiki.platform.ProblemCodes;
import dev.hanwiki.platform.TokenCheck;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * Signs and verifies the service's tokens: compact JWS, HS256 only, claims {@code iss},
 * {@code sub} (user id), {@code jti}, {@code iat} and {@code exp}. Verification accepts
 * nothing else: another algorithm (including {@code none}), another issuer, a missing claim or
 * a bad signature is an invalid token. Expiry is exact (no leeway), which keeps the
 * blacklist's TTL, the remaining lifetime, sufficient.
 */
@Component
class JwtTokens {

    private static final int MAX_TOKEN_ID_LENGTH = 64;

    private final MACSigner signer;
    private final MACVerifier verifier;
    private final AuthSettings settings;
    private final Clock clock;

    JwtTokens(AuthSettings settings, Clock clock) throws JOSEException {
        byte[] secret = settings.secretBytes();
        this.signer = new MACSigner(secret);
        this.verifier = new MACVerifier(secret);
        this.settings = settings;
        this.clock = clock;
    }

    IssuedToken issue(long userId) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Instant expiresAt = now.plus(settings.tokenLifetime());
        String id = UUID.randomUUID().toString();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(settings.issuer())
                .subject(Long.toString(userId))
                .jwtID(id)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(expiresAt))
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a token", e);
        }
        return new IssuedToken(jwt.serialize(), id, expiresAt);
    }

    /** Checks signature and claims; says nothing yet about revocation. */
    TokenCheck verify(String token) {
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(token);
            if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm()) || !jwt.verify(verifier)) {
                return invalid();
            }
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException | JOSEException | RuntimeException e) {
            // Whatever a forged or truncated token makes the parser throw, it is just invalid.
            return invalid();
        }
        Date expires = claims.getExpirationTime();
        String id = claims.getJWTID();
        long userId = userId(claims.getSubject());
        if (expires == null || claims.getIssueTime() == null || !settings.issuer().equals(claims.getIssuer())
                || id == null || id.isBlank() || id.length() > MAX_TOKEN_ID_LENGTH || userId <= 0) {
            return invalid();
        }
        if (!clock.instant().isBefore(expires.toInstant())) {
            return new TokenCheck.Rejected(ProblemCodes.TOKEN_EXPIRED, "The token has expired. Sign in again.");
        }
        return new TokenCheck.Valid(new AuthenticatedUser(userId, id, expires.toInstant()));
    }

    private static long userId(String subject) {
        try {
            return subject == null ? -1 : Long.parseLong(subject);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static TokenCheck invalid() {
        return new TokenCheck.Rejected(ProblemCodes.INVALID_TOKEN, "The token is not valid. Sign in again.");
    }
}
