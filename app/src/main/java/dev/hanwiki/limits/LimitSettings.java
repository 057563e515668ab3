package dev.hanwiki.limits;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code hanwiki.limits.*}: how often clients may try (ADR 0085, 0086, docs/security.md). Every
 * limit is a token bucket: {@code burst} attempts at once, then one more every {@code every}.
 *
 * @param store            the Redis holding the buckets: the auth Redis (persisted, never
 *                         sharded), the same server as the token blacklist by default
 * @param trustedAddresses client addresses of trusted load generators, exempt from the
 *                         per-address ceilings and the per-user write limits (never from the
 *                         per-account login throttle); exact addresses, empty by default
 * @param login            failed-login throttles
 * @param writes           write limits per user
 */
@Validated
@ConfigurationProperties("hanwiki.limits")
record LimitSettings(
        @NotNull @Valid @DefaultValue Store store,
        @NotNull @DefaultValue({}) List<@NotBlank String> trustedAddresses,
        @NotNull @Valid @DefaultValue Login login,
        @NotNull @Valid @DefaultValue Writes writes) {

    /** One token bucket: {@code burst} at once, then one every {@code every}. */
    record Bucket(int burst, Duration every) {

        long millisPerToken() {
            return Math.max(1, every.toMillis());
        }

        /** Tokens per hour once the burst is spent: what docs/security.md quotes. */
        long perHour() {
            return Duration.ofHours(1).toMillis() / millisPerToken();
        }
    }

    /**
     * @param timeout           longest a limit check may take before the call fails closed. 2 s, not
     *                          the blacklist's 500 ms: a login burst keeps both cores busy hashing
     *                          passwords, and a fresh JVM's first script calls then take longer;
     *                          200 logins at once from a just-restarted node failed closed at 500 ms

     * @param connectTimeout    longest a connection attempt may take
     * @param retryAfterFailure after a failed connection attempt, checks fail at once this long
     * @param username          the auth Redis' ACL user (empty: the default user)
     * @param password          its password (empty: none); never logged
     */
    record Store(
            @NotBlank @DefaultValue("127.0.0.1") String host,
            @Min(1) @Max(65535) @DefaultValue("6379") int port,
            @NotNull @DefaultValue("2s") @DurationMin(millis = 50) @DurationMax(seconds = 10) Duration timeout,
            @NotNull @DefaultValue("2s") @DurationMin(millis = 50) @DurationMax(seconds = 30) Duration connectTimeout,
            @NotNull @DefaultValue("1s") @DurationMin(millis = 100) @DurationMax(minutes = 1) Duration retryAfterFailure,
            String username,
            String password) {

        @Override
        public String toString() {
            return "Store[host=" + host + ", port=" + port + ", timeout=" + timeout + ", username=" + username
                    + ", password=" + (password == null || password.isEmpty() ? "none" : "(hidden)") + "]";
        }
    }

    /**
     * Failed logins. Every attempt takes a token from its buckets and a successful one gives
     * them back, so only failures count (and concurrent guesses cannot overrun a bucket).
     *
     * @param accountBurst    failures per account (from addresses it never signed in from)
     *                        before it is throttled
     * @param accountEvery    then one more attempt per account every this long
     * @param pairBurst       failures per (address, account) before that pair is throttled
     * @param pairEvery       then one more attempt from that address for that account
     * @param knownAddressTtl an address the account signed in from is "known" this long; the
     *                        account bucket does not apply there, so other people's failures
     *                        never lock the owner out of their usual place
     */
    record Login(
            @Min(1) @Max(1000) @DefaultValue("10") int accountBurst,
            @NotNull @DefaultValue("30s") @DurationMin(seconds = 1) @DurationMax(hours = 24) Duration accountEvery,
            @Min(1) @Max(1000) @DefaultValue("5") int pairBurst,
            @NotNull @DefaultValue("60s") @DurationMin(seconds = 1) @DurationMax(hours = 24) Duration pairEvery,
            @NotNull @DefaultValue("30d") @DurationMin(minutes = 1) @DurationMax(days = 365) Duration knownAddressTtl) {

        Bucket account() {
            return new Bucket(accountBurst, accountEvery);
        }

        Bucket pair() {
            return new Bucket(pairBurst, pairEvery);
        }
    }

    /**
     * Writes per user. Defaults a person never meets: 30 new pages at once then one a minute
     * (60 an hour), 60 edits then one every 10 s, 100 likes or unlikes then one a second,
     * 30 deletions then one a minute.
     */
    record Writes(
            @DefaultValue("true") boolean enabled,
            @Min(1) @Max(100_000) @DefaultValue("30") int postBurst,
            @NotNull @DefaultValue("60s") @DurationMin(millis = 1) @DurationMax(hours = 24) Duration postEvery,
            @Min(1) @Max(100_000) @DefaultValue("60") int editBurst,
            @NotNull @DefaultValue("10s") @DurationMin(millis = 1) @DurationMax(hours = 24) Duration editEvery,
            @Min(1) @Max(100_000) @DefaultValue("100") int likeBurst,
            @NotNull @DefaultValue("1s") @DurationMin(millis = 1) @DurationMax(hours = 24) Duration likeEvery,
            @Min(1) @Max(100_000) @DefaultValue("30") int deleteBurst,
            @NotNull @DefaultValue("60s") @DurationMin(millis = 1) @DurationMax(hours = 24) Duration deleteEvery) {

        Bucket of(WriteAction action) {
            return switch (action) {
                case POST -> new Bucket(postBurst, postEvery);
                case EDIT -> new Bucket(editBurst, editEvery);
                case LIKE -> new Bucket(likeBurst, likeEvery);
                case DELETE -> new Bucket(deleteBurst, deleteEvery);
            };
        }
    }
}
