package dev.hanwiki.autocomplete;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code hanwiki.autocomplete.queries.*}: popular past searches as autocomplete entries (ADR 0038).
 *
 * @param enabled         count searches and file popular ones (off: nothing is counted or filed)
 * @param minClients      distinct clients (signed-in users, else addresses) that must have searched
 *                        a query, with results, within the last one to two windows
 * @param window          counting window; a query's count is its distinct clients in the current
 *                        and the previous window, so a burst stops counting after two windows
 * @param ttl             an entry not filed again for this long expires (read checks it, a sweep
 *                        removes it)
 * @param flush           how often a node sends what it counted (one script per shard)
 * @param weight          score per distinct client, against titles' {@code views + 10 * likes}
 * @param maxChars        longest query that can become an entry
 * @param perClient       distinct queries one client adds to a node's count per flush (more are dropped)
 * @param clientsPerQuery clients of one query a node keeps per flush (enough to pass {@code minClients})
 * @param maxPending      distinct queries a node keeps per flush, one limit shared by every client
 *                        (more are dropped until the flush)
 * @param keep            query entries kept per query prefix key ({@code qr:/qj:/qc:}, apart from the
 *                        titles' keys, so queries never push a title out)
 * @param minAccountAge   a signed-in searcher counts as its account only once the account is this
 *                        old; a younger one counts as its address (ADR 0089), so free fresh
 *                        accounts from one place are one client
 */
record QuerySettings(
        @DefaultValue("true") boolean enabled,
        @Min(2) @Max(10_000) @DefaultValue("3") int minClients,
        @NotNull @DefaultValue("1h") Duration window,
        @NotNull @DefaultValue("6h") Duration ttl,
        @NotNull @DefaultValue("2s") Duration flush,
        @Min(1) @Max(1000) @DefaultValue("10") int weight,
        @Min(QueryText.MIN_CHARS) @Max(100) @DefaultValue("40") int maxChars,
        @Min(1) @Max(1000) @DefaultValue("10") int perClient,
        @Min(1) @Max(1000) @DefaultValue("64") int clientsPerQuery,
        @Min(1) @Max(100_000) @DefaultValue("2000") int maxPending,
        @Min(1) @Max(50) @DefaultValue("10") int keep,
        @NotNull @DefaultValue("7d") Duration minAccountAge) {

    /** A score changed by less than this share is not worth rewriting ~30 keys for. */
    static final double RESCORE_SHARE = 0.2;

    QuerySettings {
        if (clientsPerQuery < minClients) {
            throw new IllegalArgumentException("hanwiki.autocomplete.queries.clients-per-query must be at least min-clients");
        }
        if (flush.compareTo(Duration.ofMillis(100)) < 0 || window.compareTo(flush.multipliedBy(10)) < 0) {
            throw new IllegalArgumentException("hanwiki.autocomplete.queries: flush must be at least 100ms and window at least 10 flushes");
        }
        if (ttl.compareTo(window) < 0) {
            throw new IllegalArgumentException("hanwiki.autocomplete.queries.ttl must be at least window");
        }
    }

    /** Whether a query searched by {@code clients} distinct clients is an entry. */
    boolean popular(long clients) {
        return clients >= minClients;
    }

    /** The entry's score, on the titles' scale. */
    double score(long clients) {
        return (double) weight * clients;
    }

    /**
     * Whether this node should write an entry again: it never filed it into that version (or
     * forgot: it remembers a filing for {@code ttl / 4}, so a query that stays popular is
     * re-filed, and its expiry pushed back, at least that often), or its score moved by at least
     * {@link #RESCORE_SHARE}.
     */
    boolean refile(Double filedScore, double score) {
        return filedScore == null || Math.abs(score - filedScore) >= RESCORE_SHARE * filedScore;
    }

    Duration remember() {
        return ttl.dividedBy(4);
    }
}
