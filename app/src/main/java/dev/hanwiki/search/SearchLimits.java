package dev.hanwiki.search;

import dev.hanwiki.platform.InvalidInputException;
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
 * {@code hanwiki.search-limits.*}: what one search may cost (ADR 0087). Anyone can search, and
 * random words defeat the cache, so every search is bounded before and while it runs.
 *
 * @param maxQueryChars      longer text is a 400 (a search box, not a paste target)
 * @param maxTerms           more whitespace-separated words is a 400
 * @param timeBudget         collecting hits stops after this long (wall time: a backstop, far
 *                           above a normal search, so a busy machine does not cut answers); the
 *                           answer is then partial ({@code X-Hanwiki-Partial: true}), never cached
 * @param suggestionBudget   did-you-mean work stops after this long (words not yet looked at
 *                           stay as typed)
 * @param suggestionMaxWords unknown words corrected per query at most; did-you-mean is only
 *                           tried when the query found fewer than 3 hits
 */
@Validated
@ConfigurationProperties("hanwiki.search-limits")
record SearchLimits(
        @Min(1) @Max(SearchRequest.MAX_QUERY_LENGTH) @DefaultValue("512") int maxQueryChars,
        @Min(1) @Max(1000) @DefaultValue("32") int maxTerms,
        @NotNull @DefaultValue("1s") @DurationMin(millis = 1) @DurationMax(seconds = 30) Duration timeBudget,
        @NotNull @DefaultValue("50ms") @DurationMin(millis = 1) @DurationMax(seconds = 5) Duration suggestionBudget,
        @Min(0) @Max(32) @DefaultValue("4") int suggestionMaxWords) {

    /** Defaults, for tools and tests that build the engine by hand. */
    static SearchLimits defaults() {
        return new SearchLimits(512, 32, Duration.ofSeconds(1), Duration.ofMillis(50), 4);
    }

    SearchLimits withTimeBudget(Duration budget) {
        return new SearchLimits(maxQueryChars, maxTerms, budget, suggestionBudget, suggestionMaxWords);
    }

    /** A clear 400 for text past the caps, before any analysis. */
    void check(String q) {
        if (q.length() > maxQueryChars) {
            throw new InvalidInputException("q must be at most " + maxQueryChars + " characters.");
        }
        String stripped = q.strip();
        int terms = stripped.isEmpty() ? 0 : stripped.split("\\s+").length;
        if (terms > maxTerms) {
            throw new InvalidInputException("q must have at most " + maxTerms + " words (it has " + terms + ").");
        }
    }
}
