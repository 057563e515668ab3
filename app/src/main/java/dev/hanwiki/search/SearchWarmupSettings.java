package dev.hanwiki.search;

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
 * {@code hanwiki.search-warmup.*}: how a node warms its search and analysis code before it
 * reports ready (ADR 0100).
 *
 * @param searches    searches run against the node's own index (0: no warm-up)
 * @param maxDuration the warm-up ends by then however many searches it ran
 * @param niceness    the nice value the warm-up runs at (ADR 0100, amended): above 0 it yields
 *                    the cores to requests, such as the other node's on a shared host, and still
 *                    runs at full speed on an idle one; 0 runs it at normal priority
 */
@Validated
@ConfigurationProperties("hanwiki.search-warmup")
record SearchWarmupSettings(
        @DefaultValue("3000") @Min(0) @Max(1_000_000) int searches,
        @NotNull @DefaultValue("20s") @DurationMin(millis = 0) @DurationMax(minutes = 5) Duration maxDuration,
        @DefaultValue("10") @Min(0) @Max(19) int niceness) {
}
