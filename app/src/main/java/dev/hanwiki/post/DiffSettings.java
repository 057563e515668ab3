package dev.hanwiki.post;

import dev.hanwiki.cache.CacheRegion;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * {@code hanwiki.diff.*}: what one diff may cost (ADR 0087). Myers' cost grows with lines times
 * changes, so each side is capped in lines and characters (past either: 422 DIFF_TOO_LARGE,
 * answered before any diffing); revisions never change, so a computed diff is cached per
 * (post, from, to) in the tiered cache and computed once per TTL, not once per request.
 *
 * @param maxLines  lines per side at most (a 2,000-line rewrite diffs in tens of milliseconds)
 * @param maxChars  characters per side at most
 * @param l1Ttl     a diff in this node's memory
 * @param l2Ttl     a diff in Redis
 * @param l1MaxSize this node's memory for diffs
 */
@Validated
@ConfigurationProperties("hanwiki.diff")
record DiffSettings(
        @Min(1) @Max(100_000) @DefaultValue("2000") int maxLines,
        @Min(1) @Max(10_000_000) @DefaultValue("262144") int maxChars,
        @NotNull @DefaultValue("10m") @DurationMin(seconds = 1) @DurationMax(days = 1) Duration l1Ttl,
        @NotNull @DefaultValue("1h") @DurationMin(seconds = 1) @DurationMax(days = 7) Duration l2Ttl,
        @NotNull @DefaultValue("16MB") DataSize l1MaxSize) {

    CacheRegion region() {
        return new CacheRegion("post-diff", l1Ttl, l2Ttl, Duration.ofSeconds(1), l1MaxSize.toBytes(), 0.2);
    }
}
