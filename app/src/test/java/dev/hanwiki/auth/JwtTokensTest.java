package dev.hanwiki.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hanwiki.UnreachableInfrastructure;
import dev.hanwiki.platform.ProblemCodes;
import dev.hanwiki.platform.TokenCheck;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class JwtTokensTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    private static final String SECRET = UnreachableInfrastructure.TEST_JWT_SECRET;
    private static final String OTHER_SECRET = "b3RoZXItc2VjcmV0LW9mLWF0LWxlYXN0LTMyLWJ5dGVzLWxvbmc=";

    private static AuthSettings settings(String secret) {
        return new AuthSettings(secret, Duration.ofMinutes(30), "hanwiki", false,
                new AuthSettings.Blacklist("127.0.0.1", 6379, Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofSeconds(1)), 2);
    }

    private static JwtTokens tokensAt(Instant now) throws Exception {
        return new JwtTokens(settings(SECRET), Clock.fixed(now, ZoneOffset.UTC));
    }

    private static String code(TokenCheck check) {
        return check instanceof TokenCheck.Rejected rejected ? rejected.code() : check.getClass().getSimpleName();
    }

    @Test
    void anIssuedTokenVerifiesAsItsUserWithAnIdAndThirtyMinutesOfLife() throws Exception {
        IssuedToken token = tokensAt(NOW).issue(42);

        TokenCheck check = tokensAt(NOW.plusSeconds(60)).verify(token.value());

        assertThat(check).isInstanceOf(TokenCheck.Valid.class);
        var user = ((TokenCheck.Valid) check).user();
        assertThat(user.id()).isEqualTo(42);
        assertThat(user.tokenId()).isEqualTo(token.id()).isNotBlank();
        assertThat(user.expiresAt()).isEqualTo(NOW.plus(Duration.ofMinutes(30)));
    }

    @Test
    void everyTokenHasItsOwnId() throws Exception {
        JwtTokens tokens = tokensAt(NOW);
        assertThat(tokens.issue(1).id()).isNotEqualTo(tokens.issue(1).id());
    }

    @Test
    void aTokenIsRefusedFromItsExpiryOn() throws Exception {
        IssuedToken token = tokensAt(NOW).issue(42);

        assertThat(code(tokensAt(NOW.plus(Duration.ofMinutes(30)).minusMillis(1)).verify(token.value()))).isEqualTo("Valid");
        assertThat(code(tokensAt(NOW.plus(Duration.ofMinutes(30))).verify(token.value()))).isEqualTo(ProblemCodes.TOKEN_EXPIRED);
    }

    @Test
    void aTokenSignedWithAnotherSecretIsInvalid() throws Exception {
        String forged = TestTokens.sign(OTHER_SECRET, TestTokens.claims(42, NOW, NOW.plusSeconds(600)).build());

        assertThat(code(tokensAt(NOW).verify(forged))).isEqualTo(ProblemCodes.INVALID_TOKEN);
    }

    @Test
    void anUnsignedTokenIsInvalid() throws Exception {
        String unsigned = TestTokens.unsigned(TestTokens.claims(42, NOW, NOW.plusSeconds(600)).build());

        assertThat(code(tokensAt(NOW).verify(unsigned))).isEqualTo(ProblemCodes.INVALID_TOKEN);
    }

    @Test
    void aChangedPayloadBreaksTheSignature() throws Exception {
        String token = tokensAt(NOW).issue(42).value();
        String[] parts = token.split("\\.");
        String other = TestTokens.sign(SECRET, TestTokens.claims(1, NOW, NOW.plusSeconds(600)).build()).split("\\.")[1];

        assertThat(code(tokensAt(NOW).verify(parts[0] + "." + other + "." + parts[2]))).isEqualTo(ProblemCodes.INVALID_TOKEN);
    }

    @Test
    void aTokenOfAnotherIssuerOrWithoutAnIdIsInvalid() throws Exception {
        JwtTokens tokens = tokensAt(NOW);
        String otherIssuer = TestTokens.sign(SECRET, TestTokens.claims(42, NOW, NOW.plusSeconds(600)).issuer("elsewhere").build());
        String noId = TestTokens.sign(SECRET, TestTokens.claims(42, NOW, NOW.plusSeconds(600)).jwtID(null).build());
        String badSubject = TestTokens.sign(SECRET, TestTokens.claims(42, NOW, NOW.plusSeconds(600)).subject("admin").build());

        assertThat(code(tokens.verify(otherIssuer))).isEqualTo(ProblemCodes.INVALID_TOKEN);
        assertThat(code(tokens.verify(noId))).isEqualTo(ProblemCodes.INVALID_TOKEN);
        assertThat(code(tokens.verify(badSubject))).isEqualTo(ProblemCodes.INVALID_TOKEN);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "x", "a.b.c", "...", "eyJhbGciOiJIUzI1NiJ9..", "eyJhbGciOiJIUzI1NiJ9.e30.",
            "' OR 1=1 --", "eyJ\u0000.eyJ.sig", "%00", "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.Zm9v"})
    void garbageIsAnInvalidTokenNotAFailure(String garbage) throws Exception {
        assertThat(code(tokensAt(NOW).verify(garbage))).isEqualTo(ProblemCodes.INVALID_TOKEN);
    }
}
