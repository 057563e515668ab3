package dev.hanwiki.search;

import dev.hanwiki.cache.CacheRegion;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * {@code hanwiki.search-cache.*}: how search responses are cached (ADR 0033).
 *
 * @param staleness the promise: a cached answer never misses an indexed change for longer than
 *                  this (plus the skew between the two nodes' indexers); at most 5 s
 * @param l1Ttl     an answer in this node's memory while the index does not change
 * @param l2Ttl     an answer in Redis (each node checks its age against its own index)
 * @param l1MaxSize this node's memory for search answers
 */
@Validated
@ConfigurationProperties("hanwiki.search-cache")
record SearchCacheSettings(
        @NotNull @DefaultValue("1s") @DurationMin(millis = 50) @DurationMax(seconds = 5) Duration staleness,
        @NotNull @DefaultValue("60s") @DurationMin(seconds = 1) @DurationMax(minutes = 30) Duration l1Ttl,
        @NotNull @DefaultValue("60s") @DurationMin(seconds = 1) @DurationMax(minutes = 30) Duration l2Ttl,
        @NotNull @DefaultValue("32MB") DataSize l1MaxSize) {

    CacheRegion region() {
        // An empty answer is an answer like any other here (no 404s): same lifetimes.
        return new CacheRegion("search", l1Ttl, l2Ttl, l1Ttl, l1MaxSize.toBytes(), 0.2);
    }
}
