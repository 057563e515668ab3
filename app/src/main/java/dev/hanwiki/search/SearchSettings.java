package dev.hanwiki.search;

import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code hanwiki.search.index-path}: this node's own index directory (created if missing).
 * {@code hanwiki.search.refresh-interval}: how stale a searcher may get; it bounds the
 * index's share of the 1 s write-to-search freshness budget.
 */
@Validated
@ConfigurationProperties("hanwiki.search")
public record SearchSettings(
        @NotNull Path indexPath,
        @NotNull @DefaultValue("100ms") @DurationMin(millis = 10) @DurationMax(seconds = 5) Duration refreshInterval) {
}
