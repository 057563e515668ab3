package dev.hanwiki.platform;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code hanwiki.read-routing.*}: when reads leave the replica for the primary.
 *
 * @param maxReplicaLag   reads move to the primary while the replica needs longer than this to
 *                        apply what the primary had logged (measured by {@link ReplicaMonitor})
 * @param probeInterval   how often the replica's lag and reachability are measured
 * @param syncWait        how long a read on behalf of a client that just wrote waits for the
 *                        replica to apply that write before it reads from the primary instead
 * @param syncMaxAge      how long a client carries its last write position (cookie lifetime);
 *                        longer than it takes the probe to notice a lagging replica
 * @param gtidFlavor      the GTID dialect of the servers: MariaDB locally, MySQL in production
 * @param syncSecret      per-install secret that signs the positions handed to clients, so a
 *                        node honours only positions this system issued (ADR 0087); defaults
 *                        to the token-signing secret, from which a key of its own is derived
 * @param cookieSecure    mark the {@code hw_sync} cookie Secure; follows the token cookie's
 *                        {@code hanwiki.auth.cookie-secure} (application.yml), so both cookies
 *                        are Secure wherever clients reach us over HTTPS
 */
@Validated
@ConfigurationProperties("hanwiki.read-routing")
record ReadRoutingSettings(
        @NotNull @DefaultValue("1s") @DurationMin(millis = 100) @DurationMax(minutes = 1) Duration maxReplicaLag,
        @NotNull @DefaultValue("1s") @DurationMin(millis = 100) @DurationMax(minutes = 1) Duration probeInterval,
        @NotNull @DefaultValue("100ms") @DurationMin(millis = 0) @DurationMax(seconds = 5) Duration syncWait,
        @NotNull @DefaultValue("60s") @DurationMin(seconds = 5) @DurationMax(hours = 1) Duration syncMaxAge,
        @NotNull @DefaultValue("mariadb") GtidFlavor gtidFlavor,
        @NotBlank String syncSecret,
        @DefaultValue("false") boolean cookieSecure) {

    @ConstructorBinding
    ReadRoutingSettings {
    }

    /** Positions in a plain (not Secure) cookie: tools and tests over plain HTTP. */
    ReadRoutingSettings(Duration maxReplicaLag, Duration probeInterval, Duration syncWait, Duration syncMaxAge,
            GtidFlavor gtidFlavor, String syncSecret) {
        this(maxReplicaLag, probeInterval, syncWait, syncMaxAge, gtidFlavor, syncSecret, false);
    }

    @Override
    public String toString() {
        // Keeps the secret out of logs and failure analysis output.
        return "ReadRoutingSettings[maxReplicaLag=" + maxReplicaLag + ", probeInterval=" + probeInterval + ", syncWait="
                + syncWait + ", syncMaxAge=" + syncMaxAge + ", gtidFlavor=" + gtidFlavor + ", cookieSecure=" + cookieSecure + "]";
    }
}
