package dev.hanwiki.platform;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The adaptive concurrency limit in front of every API request ({@code hanwiki.overload}, ADR 0093).
 *
 * @param enabled          off only to measure the node without it (the "before" of docs/bench/overload.md)
 * @param minLimit         the limit never drops below this many requests in flight (a burst this
 *                         size is never shed, whatever the latency)
 * @param initialLimit     the limit at start-up (the maximum: the limit shrinks when latency says
 *                         so; it grows only while at least half used, which a node far below
 *                         capacity never is, so a lower start would stay the limit for good)
 * @param maxLimit         the limit never grows past this; with the partitions' guarantees it bounds
 *                         the requests that can hold a DB connection ({@link OverloadSizing})
 * @param latencyTarget    the node-side p95 of a window above which the limit shrinks
 *                         (multiplied by {@code backoffRatio}) when the node's CPU is its queue;
 *                         below it, the limit grows by one
 * @param cpuQueueShare    the node's threads waiting for a core ({@link CpuQueue}), on average
 *                         over a window and per request in flight, from which a window over the
 *                         latency target is blamed on the node's CPU (the requests spent about that
 *                         share of their time queued for a core); under it, the slowness is a
 *                         dependency's and the window counts as healthy (shedding would not make
 *                         a slow link faster)
 * @param backoffRatio     how much the limit shrinks per window over the target
 * @param window           how often the limit is adjusted (one p95 per window)
 * @param readShare        share of the limit guaranteed to GET/HEAD when the node is saturated
 * @param writeShare       share guaranteed to writes (POST/PUT/PATCH/DELETE, logins included)
 * @param internalShare    share guaranteed to operator calls ({@code /internal/**}: rebuilds)
 * @param backlogSize      requests that may wait for a slot; past it a request is shed at once
 * @param backlogTimeout   how long one may wait (newest first: LIFO) before it is shed
 * @param retryAfter       the {@code Retry-After} of a shed request
 * @param reservedConnections connections per pool kept for background work (view flushes,
 *                         replica probes, health): never taken by admitted requests
 */
@Validated
@ConfigurationProperties("hanwiki.overload")
record OverloadSettings(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("8") @Min(1) @Max(500) int minLimit,
        @DefaultValue("32") @Min(1) @Max(500) int initialLimit,
        @DefaultValue("32") @Min(1) @Max(500) int maxLimit,
        @DefaultValue("50ms") @NotNull @DurationMin(millis = 1) @DurationMax(seconds = 10) Duration latencyTarget,
        @DefaultValue("0.5") @DecimalMin("0.0") @DecimalMax("100.0") double cpuQueueShare,
        @DefaultValue("0.9") @DecimalMin("0.5") @DecimalMax("0.99") double backoffRatio,
        @DefaultValue("500ms") @NotNull @DurationMin(millis = 100) @DurationMax(seconds = 10) Duration window,
        @DefaultValue("0.7") @DecimalMin("0.0") @DecimalMax("1.0") double readShare,
        @DefaultValue("0.25") @DecimalMin("0.0") @DecimalMax("1.0") double writeShare,
        @DefaultValue("0.05") @DecimalMin("0.0") @DecimalMax("1.0") double internalShare,
        @DefaultValue("100") @Min(0) @Max(1000) int backlogSize,
        @DefaultValue("100ms") @NotNull @DurationMin(millis = 0) @DurationMax(millis = 900) Duration backlogTimeout,
        @DefaultValue("1s") @NotNull @DurationMin(seconds = 1) @DurationMax(minutes = 5) Duration retryAfter,
        @DefaultValue("3") @Min(0) @Max(100) int reservedConnections) {

    @AssertTrue(message = "min-limit <= initial-limit <= max-limit")
    boolean isOrdered() {
        return minLimit <= initialLimit && initialLimit <= maxLimit;
    }

    @AssertTrue(message = "read-share + write-share + internal-share must not exceed 1")
    boolean isSharesWithinOne() {
        return readShare + writeShare + internalShare <= 1.0 + 1e-9;
    }

    /** Whole seconds, at least one: the {@code Retry-After} header's unit. */
    long retryAfterSeconds() {
        return Math.max(1, retryAfter.toSeconds());
    }
}
