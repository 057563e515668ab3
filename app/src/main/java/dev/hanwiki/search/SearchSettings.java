package dev.hanwiki.search;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code hanwiki.search.*}.
 *
 * @param indexPath              this node's own index directory (created if missing)
 * @param refreshInterval        how stale a searcher may get; it bounds the index's share of
 *                               the 1 s write-to-search freshness budget
 * @param analysisDir            directory holding {@code user-dictionary.txt} and
 *                               {@code synonyms.txt}, watched for changes; absent: the copies
 *                               on the classpath, never reloaded
 * @param analysisReloadInterval how often the analysis files are checked for changes
 * @param ramBufferMb            IndexWriter RAM buffer; larger means fewer, larger flushed
 *                               segments during bulk indexing
 * @param mergeNiceness          the nice value of Lucene's merge threads: above 0 merges yield the
 *                               cores to requests when the machine is full (ADR 0093, fourth
 *                               amendment); 0 keeps normal priority
 * @param counterWriteInterval   how long decided counter changes (likes, views) may wait before
 *                               the index writes them together: each write rewrites the
 *                               popularity columns of the segments it touches ({@code
 *                               UnwrittenCounters}); searches rank by the previous counts meanwhile.
 *                               0 writes them at every refresh
 */
@Validated
@ConfigurationProperties("hanwiki.search")
public record SearchSettings(
        @NotNull Path indexPath,
        @NotNull @DefaultValue("100ms") @DurationMin(millis = 10) @DurationMax(seconds = 5) Duration refreshInterval,
        Path analysisDir,
        @NotNull @DefaultValue("2s") @DurationMin(millis = 100) @DurationMax(minutes = 10) Duration analysisReloadInterval,
        @DefaultValue("64") @Min(16) @Max(1024) int ramBufferMb,
        @DefaultValue("10") @Min(0) @Max(19) int mergeNiceness,
        @NotNull @DefaultValue("5s") @DurationMin(millis = 0) @DurationMax(minutes = 5) Duration counterWriteInterval) {

    /** Defaults for everything but the index path (tests, tools). */
    public static SearchSettings at(Path indexPath) {
        return new SearchSettings(indexPath, Duration.ofMillis(100), null, Duration.ofSeconds(2), 64, 10, Duration.ofSeconds(5));
    }

    public SearchSettings withRefreshInterval(Duration interval) {
        return new SearchSettings(indexPath, interval, analysisDir, analysisReloadInterval, ramBufferMb, mergeNiceness,
                counterWriteInterval);
    }

    public SearchSettings withAnalysisDir(Path dir) {
        return new SearchSettings(indexPath, refreshInterval, dir, analysisReloadInterval, ramBufferMb, mergeNiceness,
                counterWriteInterval);
    }

    public SearchSettings withCounterWriteInterval(Duration interval) {
        return new SearchSettings(indexPath, refreshInterval, analysisDir, analysisReloadInterval, ramBufferMb, mergeNiceness,
                interval);
    }
}
