package dev.hanwiki.search;

import dev.hanwiki.platform.InvalidInputException;

/**
 * A validated search call. Text up to 16 KB is accepted (a pasted paragraph, 10 KB of
 * punctuation): the query language keeps at most {@code SearchSyntax.MAX_CLAUSES} clauses, so
 * long text costs analysis time, not a bigger query. Pages reach at most {@value #MAX_WINDOW} results deep
 * ({@code (page + 1) * size}): collecting the top k costs more as k grows, so a deep page is
 * refused with a 400 rather than answered slowly (ADR 0021).
 */
record SearchRequest(String q, Long categoryId, int page, int size) {

    static final int MAX_QUERY_LENGTH = 16_384;
    static final int MAX_PAGE_SIZE = 100;
    static final int MAX_WINDOW = 1000;

    SearchRequest {
        if (q == null || q.isBlank()) {
            throw new InvalidInputException("q must not be blank.");
        }
        if (q.length() > MAX_QUERY_LENGTH) {
            throw new InvalidInputException("q must be at most " + MAX_QUERY_LENGTH + " characters.");
        }
        if (page < 0) {
            throw new InvalidInputException("page must be zero or more.");
        }
        if (size < 1 || size > MAX_PAGE_SIZE) {
            throw new InvalidInputException("size must be between 1 and " + MAX_PAGE_SIZE + ".");
        }
        if (((long) page + 1) * size > MAX_WINDOW) {
            throw new InvalidInputException("Results are available " + MAX_WINDOW + " deep at most: (page + 1) * size must be at most "
                    + MAX_WINDOW + ". Refine the query instead.");
        }
    }

    int offset() {
        return page * size;
    }
}
