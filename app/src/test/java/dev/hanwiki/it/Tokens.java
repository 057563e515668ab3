package dev.hanwiki.it;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.UUID;

/** Reads tokens the stack issued, forges the ones it would not, and looks into the blacklist. */
final class Tokens {

    private Tokens() {
    }

    static JWTClaimsSet claims(String token) {
        try {
            return SignedJWT.parse(token).getJWTClaimsSet();
        } catch (ParseException e) {
            throw new AssertionError("not a JWT: " + token, e);
        }
    }

    /** A token signed with the stack's own secret (var/secrets.env), for the given user and lifetime. */
    static String signed(long userId, Instant issuedAt, Instant expiresAt) {
        try {
            JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer("hanwiki").subject(Long.toString(userId))
                    .jwtID(UUID.randomUUID().toString()).issueTime(Date.from(issuedAt)).expirationTime(Date.from(expiresAt))
                    .build();
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
            jwt.sign(new MACSigner(Base64.getDecoder().decode(Stack.get("JWT_SECRET"))));
            return jwt.serialize();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** How long the blacklist still holds a token id; negative if it is not there. */
    static Duration blacklistTtl(String tokenId) {
        RedisClient client = RedisClient.create(Stack.redisUri("REDIS_AUTH"));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return Duration.ofMillis(connection.sync().pttl("bl:" + tokenId));
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }
}
