package dev.hanwiki.auth;

import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.Base64;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code hanwiki.auth.*}. The signing secret has no default: a node without one refuses to
 * start. The demo stack generates one per install into {@code var/secrets.env}.
 *
 * @param jwtSecret     base64 of at least 32 random bytes (HS256 needs a 256-bit key)
 * @param tokenLifetime how long a token is accepted after it was issued
 * @param cookieSecure  mark the token cookie Secure; on wherever clients reach us over HTTPS
 * @param blacklist     the auth Redis holding revoked token ids
 * @param passwordMinScore zxcvbn score (0-4) a new password must reach ({@link PasswordStrength})
 */
@Validated
@ConfigurationProperties("hanwiki.auth")
record AuthSettings(
        @NotBlank String jwtSecret,
        @NotNull @DefaultValue("30m") @DurationMin(minutes = 1) @DurationMax(days = 1) Duration tokenLifetime,
        @NotBlank @DefaultValue("hanwiki") String issuer,
        @DefaultValue("false") boolean cookieSecure,
        @NotNull @Valid @DefaultValue Blacklist blacklist,
        @Min(0) @Max(4) @DefaultValue("2") int passwordMinScore) {

    static final int MIN_SECRET_BYTES = 32;

    /**
     * @param timeout          longest a blacklist command may take before the call fails closed
     * @param connectTimeout   longest a connection attempt may take (the first one also loads
     *                         and warms the client, which takes a while on a cold JVM)
     * @param retryAfterFailure after a failed connection attempt, calls fail at once for this
     *                         long instead of each paying the connect timeout again
     * @param username         its Redis ACL user (null: the default user)
     * @param password         that user's password (null: none); never logged
     */
    record Blacklist(
            @NotBlank @DefaultValue("127.0.0.1") String host,
            @Min(1) @Max(65535) @DefaultValue("6379") int port,
            @NotNull @DefaultValue("500ms") @DurationMin(millis = 50) @DurationMax(seconds = 10) Duration timeout,
            @NotNull @DefaultValue("2s") @DurationMin(millis = 50) @DurationMax(seconds = 30) Duration connectTimeout,
            @NotNull @DefaultValue("1s") @DurationMin(millis = 100) @DurationMax(minutes = 1) Duration retryAfterFailure,
            String username,
            String password) {

        @ConstructorBinding
        Blacklist {
        }

        Blacklist(String host, int port, Duration timeout, Duration connectTimeout, Duration retryAfterFailure) {
            this(host, port, timeout, connectTimeout, retryAfterFailure, null, null);
        }

        @Override
        public String toString() {
            return "Blacklist[host=" + host + ", port=" + port + ", timeout=" + timeout + ", connectTimeout="
                    + connectTimeout + ", retryAfterFailure=" + retryAfterFailure + ", username=" + username
                    + ", password=" + (password == null ? "none" : "(hidden)") + "]";
        }
    }

    @AssertTrue(message = "must be base64 of at least 32 bytes")
    boolean isJwtSecretStrong() {
        return jwtSecret == null || secretBytes() != null && secretBytes().length >= MIN_SECRET_BYTES;
    }

    byte[] secretBytes() {
        try {
            return Base64.getDecoder().decode(jwtSecret.strip());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        // Keeps the secret out of logs and failure analysis output.
        return "AuthSettings[tokenLifetime=" + tokenLifetime + ", issuer=" + issuer + ", cookieSecure=" + cookieSecure
                + ", blacklist=" + blacklist + ", passwordMinScore=" + passwordMinScore + "]";
    }
}
