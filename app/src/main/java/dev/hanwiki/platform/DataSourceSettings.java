package dev.hanwiki.platform;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The two connection pools: {@code hanwiki.datasource.primary} (all writes) and
 * {@code hanwiki.datasource.replica} (detail and listing reads). Flyway does not use these: it
 * migrates with its own, more privileged account ({@code spring.flyway.*}).
 * <p>
 * {@code write-timeout} bounds each wait for the primary's answer inside a client's write
 * transaction, the commit included ({@link PrimaryWrites}): under nginx's read timeout (2.5 s),
 * so a write the primary holds (a full disk) is answered by the node, as not confirmed, before
 * nginx gives up on it and takes the whole node out of rotation.
 */
@Validated
@ConfigurationProperties("hanwiki.datasource")
record DataSourceSettings(@NotNull @Valid Pool primary, @NotNull @Valid Pool replica,
        @DefaultValue("1500ms") @NotNull @DurationMin(millis = 100) @DurationMax(minutes = 1) Duration writeTimeout) {

    /**
     * One pool. The connection timeout is short on purpose: a request waiting 30 s (Hikari's
     * default) for a dead database holds a Tomcat thread long after the client gave up, and a
     * pool must never be where requests queue (ADR 0093): it is larger than what the overload
     * limiter can admit at once ({@code OverloadSizing}), so an admitted request waits for a
     * connection only when the database itself is slow or gone, and then 500 ms at most. A
     * connection held longer than the leak detection threshold is logged with the stack that
     * borrowed it (no request here holds one for more than a few hundred milliseconds).
     * <p>
     * The socket timeout bounds one call's wait for the server's answer ({@code 0s}: none, the
     * driver's default). The replica's is short (see application.yml): a replica that stopped
     * answering without closing its connections (its host hung or cut off) would otherwise hold
     * a read until TCP gives up, minutes later; with it the read fails over to the primary
     * ({@link ReplicaReads}) well within nginx's read timeout. The primary's pool has none:
     * background work on it (view flushes, rebuild reads) may legitimately wait; a client's write
     * is bounded by {@code write-timeout} instead, and answered as not confirmed (it may have
     * committed), never as failed.
     */
    record Pool(
            @NotBlank @Pattern(regexp = "jdbc:mysql:.+") String url,
            @NotBlank String username,
            String password,
            @DefaultValue("70") @Min(1) @Max(200) int maximumPoolSize,
            @DefaultValue("500ms") @NotNull @DurationMin(millis = 250) @DurationMax(minutes = 1) Duration connectionTimeout,
            @DefaultValue("20s") @NotNull @DurationMin(seconds = 2) @DurationMax(minutes = 10) Duration leakDetectionThreshold,
            @DefaultValue("0s") @NotNull @DurationMax(minutes = 10) Duration socketTimeout) {

        @Override
        public String toString() {
            // Keeps the password out of logs and failure analysis output.
            return "Pool[url=" + url + ", username=" + username + ", maximumPoolSize=" + maximumPoolSize + ", socketTimeout=" + socketTimeout + "]";
        }
    }
}
