package dev.hanwiki.search;

import dev.hanwiki.platform.InvalidInputException;

/**
 * A validated search call. Deep pages are refused ({@code page * size <= 10000}) because every
 * page costs collecting all hits before it.
 */
record SearchRequest(String q, Long categoryId, int page, int size) {

    static final int MAX_QUERY_LENGTH = 1000;
    static final int MAX_PAGE_SIZE = 100;
    static final int MAX_WINDOW = 10_000;

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
        if ((long) page * size > MAX_WINDOW) {
            throw new InvalidInputException("page * size must be at most " + MAX_WINDOW + ".");
        }
    }

    int offset() {
        return page * size;
    }
}
