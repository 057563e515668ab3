package dev.hanwiki.autocomplete;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code hanwiki.autocomplete.*}.
 *
 * @param results        titles per answer
 * @param keep           titles kept per prefix key (more than {@code results}, so a few deletes
 *                       or stale entries do not leave an answer short before the next rebuild)
 * @param maxKeyChars    title characters that get prefix keys; longer prefixes are answered from
 *                       the key of their first {@code maxKeyChars} characters, checked in full
 * @param maxPrefixChars longest prefix accepted (longer is a 400)
 * @param pointerPoll    how often a node re-reads which key version is current
 * @param retryDelay     pause before a change that could not be written is tried again
 * @param fallbackCandidates pages the index fallback reads per answer before checking prefixes
 * @param rebuildBatch   titles written per round trip during a rebuild
 * @param autoRebuild    rebuild by itself when no version exists or a shard lost its keys
 * @param queries        popular past searches as entries ({@link QuerySettings})
 */
@Validated
@ConfigurationProperties("hanwiki.autocomplete")
record AutocompleteSettings(
        @Min(1) @Max(50) @DefaultValue("10") int results,
        @Min(1) @Max(200) @DefaultValue("20") int keep,
        @Min(2) @Max(64) @DefaultValue("10") int maxKeyChars,
        @Min(10) @Max(1000) @DefaultValue("100") int maxPrefixChars,
        @NotNull @DefaultValue("500ms") Duration pointerPoll,
        @NotNull @DefaultValue("200ms") Duration retryDelay,
        @Min(10) @Max(10000) @DefaultValue("400") int fallbackCandidates,
        @Min(1) @Max(10000) @DefaultValue("50") int rebuildBatch,
        @DefaultValue("true") boolean autoRebuild,
        @Valid @NotNull @DefaultValue QuerySettings queries) {

    AutocompleteSettings {
        if (keep < results) {
            throw new IllegalArgumentException("hanwiki.autocomplete.keep must be at least results");
        }
    }
}
