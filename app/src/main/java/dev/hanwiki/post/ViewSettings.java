package dev.hanwiki.post;

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
 * {@code hanwiki.views.*}: how detail reads are counted.
 *
 * @param flushInterval   how often buffered counts are added to the primary
 * @param maxPendingPosts distinct posts the buffer holds at most; a view of one more post is
 *                        dropped (and counted as dropped) until the next flush empties it
 * @param batchSize       rows per UPDATE batch and transaction
 */
@Validated
@ConfigurationProperties("hanwiki.views")
record ViewSettings(
        @NotNull @DefaultValue("1s") @DurationMin(millis = 100) @DurationMax(minutes = 5) Duration flushInterval,
        @Min(1) @Max(10_000_000) @DefaultValue("100000") int maxPendingPosts,
        @Min(1) @Max(10_000) @DefaultValue("500") int batchSize) {
}
