package dev.hanwiki.search;

import dev.hanwiki.platform.InvalidInputException;
import dev.hanwiki.platform.Paging;

/**
 * A validated search call. Text up to 16 KB is accepted (a pasted paragraph, 10 KB of
 * punctuation): the query language keeps at most {@code SearchSyntax.MAX_CLAUSES} clauses, so
 * long text costs analysis time, not a bigger query. Paging is that of ranked results
 * ({@link Paging#ranked}: at most {@value Paging#MAX_RANKED_DEPTH} results deep, ADR 0021).
 * {@code exact} turns the keyboard-layout rescue off: the text is searched as typed, never
 * replaced (the page's "search instead for dkssud" link; ADR 0070).
 */
record SearchRequest(String q, Long categoryId, int page, int size, boolean exact) {

    static final int MAX_QUERY_LENGTH = 16_384;

    SearchRequest {
        if (q == null || q.isBlank()) {
            throw new InvalidInputException("q must not be blank.");
        }
        if (q.length() > MAX_QUERY_LENGTH) {
            throw new InvalidInputException("q must be at most " + MAX_QUERY_LENGTH + " characters.");
        }
        Paging.ranked(page, size);
    }

    /** With the keyboard-layout rescue on (the default of the API). */
    SearchRequest(String q, Long categoryId, int page, int size) {
        this(q, categoryId, page, size, false);
    }

    int offset() {
        return page * size;
    }
}
