package dev.hanwiki.post;

import dev.hanwiki.cache.CacheRegion;
import dev.hanwiki.platform.Paging;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * {@code hanwiki.post-cache.*}: how post details and list pages are cached (ADR 0031, 0032).
 *
 * @param detailL1Ttl  a detail in this node's memory (changes evict it sooner, from the stream)
 * @param detailL2Ttl  a detail in Redis; also how long this node remembers announced versions
 * @param listL1Ttl    a list page in memory (edits, creations and deletions evict list pages
 *                     at once; likes and views are laid over the rows on read)
 * @param listL2Ttl    a list page in Redis
 * @param negativeTtl  a 404 (absent post) in both tiers
 * @param listPages    pages 0 .. listPages-1 of every list are cached, deeper ones are not
 * @param listSizes    page sizes that are cached (the shared invalidator deletes exactly these)
 * @param lagGuard     after a change to lists, list pages are loaded from the primary for this
 *                     long (the replica may not have it yet); at least the replica lag bound
 * @param l1MaxSize    this node's memory for details, and again for lists
 */
@Validated
@ConfigurationProperties("hanwiki.post-cache")
record PostCacheSettings(
        @NotNull @DefaultValue("60s") @DurationMin(millis = 100) @DurationMax(hours = 1) Duration detailL1Ttl,
        @NotNull @DefaultValue("5m") @DurationMin(seconds = 1) @DurationMax(hours = 1) Duration detailL2Ttl,
        @NotNull @DefaultValue("5s") @DurationMin(millis = 100) @DurationMax(minutes = 5) Duration listL1Ttl,
        @NotNull @DefaultValue("30s") @DurationMin(seconds = 1) @DurationMax(minutes = 30) Duration listL2Ttl,
        @NotNull @DefaultValue("2s") @DurationMin(millis = 100) @DurationMax(minutes = 1) Duration negativeTtl,
        @Min(0) @Max(100) @DefaultValue("5") int listPages,
        @NotEmpty @DefaultValue({"10", "20", "30", "50"}) List<@Min(1) @Max(Paging.MAX_SIZE) Integer> listSizes,
        @NotNull @DefaultValue("2s") @DurationMin(millis = 100) @DurationMax(minutes = 1) Duration lagGuard,
        @NotNull @DefaultValue("32MB") DataSize l1MaxSize) {

    static final double JITTER = 0.2;

    CacheRegion detailRegion() {
        return new CacheRegion("post", detailL1Ttl, detailL2Ttl, negativeTtl, l1MaxSize.toBytes(), JITTER);
    }

    CacheRegion listRegion() {
        return new CacheRegion("post-list", listL1Ttl, listL2Ttl, negativeTtl, l1MaxSize.toBytes(), JITTER);
    }

    boolean cachesList(Paging paging) {
        return paging.page() < listPages && listSizes.contains(paging.size());
    }
}
