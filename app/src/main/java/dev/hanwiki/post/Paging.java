package dev.hanwiki.post;

import dev.hanwiki.platform.InvalidInputException;

/**
 * A validated page request: {@code page} from 0, {@code size} 1 to 100, and at most 10 000 rows
 * skipped. Lists are answered as slices (one extra row says whether a next page exists), never
 * with a count.
 */
record Paging(int page, int size) {

    static final int MAX_SIZE = 100;
    static final int MAX_OFFSET = 10_000;

    Paging {
        if (page < 0) {
            throw new InvalidInputException("page must be zero or more.");
        }
        if (size < 1 || size > MAX_SIZE) {
            throw new InvalidInputException("size must be between 1 and " + MAX_SIZE + ".");
        }
        if ((long) page * size > MAX_OFFSET) {
            throw new InvalidInputException("page * size must be at most " + MAX_OFFSET + ".");
        }
    }

    int offset() {
        return page * size;
    }

    /** Rows to fetch: the page plus one that only tells whether there is a next page. */
    int probe() {
        return size + 1;
    }
}
