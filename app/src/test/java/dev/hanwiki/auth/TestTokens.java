package dev.hanwiki.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.UUID;

/** Hand-made tokens, for the cases the service itself would never issue. */
final class TestTokens {

    private TestTokens() {
    }

    static JWTClaimsSet.Builder claims(long userId, Instant issuedAt, Instant expiresAt) {
        return new JWTClaimsSet.Builder()
                .issuer("hanwiki")
                .subject(Long.toString(userId))
                .jwtID(UUID.randomUUID().toString())
                .issueTime(Date.from(issuedAt))
                .expirationTime(Date.from(expiresAt));
    }

    static String sign(String base64Secret, JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
            jwt.sign(new MACSigner(Base64.getDecoder().decode(base64Secret)));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An unsigned token ({@code "alg":"none"}) with the given claims. */
    static String unsigned(JWTClaimsSet claims) {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        return b64.encodeToString("{\"alg\":\"none\"}".getBytes()) + "." + b64.encodeToString(claims.toString().getBytes()) + ".";
    }
}
