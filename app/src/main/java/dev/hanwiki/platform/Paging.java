package dev.hanwiki.platform;

/**
 * A validated {@code page}/{@code size} request, the one place for the API's paging rules:
 * {@code page} from 0, {@code size} 1 to {@value #MAX_SIZE}, and a bound on depth that depends
 * on what is paged. Lists skip at most {@value #MAX_LIST_OFFSET} rows ({@link #list}, ADR 0015);
 * ranked search results reach at most {@value #MAX_RANKED_DEPTH} deep ({@link #ranked}, ADR 0021:
 * collecting the top k costs more as k grows, so a deep page is refused rather than answered
 * slowly). Either way the caller answers with a slice (one extra row says whether a next page
 * exists), never with a count.
 */
public record Paging(int page, int size) {

    public static final int MAX_SIZE = 100;
    public static final int MAX_LIST_OFFSET = 10_000;
    public static final int MAX_RANKED_DEPTH = 1000;

    public Paging {
        if (page < 0) {
            throw new InvalidInputException("page must be zero or more.");
        }
        if (size < 1 || size > MAX_SIZE) {
            throw new InvalidInputException("size must be between 1 and " + MAX_SIZE + ".");
        }
    }

    /** A page of a list: at most {@value #MAX_LIST_OFFSET} rows skipped. */
    public static Paging list(int page, int size) {
        Paging paging = new Paging(page, size);
        if ((long) page * size > MAX_LIST_OFFSET) {
            throw new InvalidInputException("page * size must be at most " + MAX_LIST_OFFSET + ".");
        }
        return paging;
    }

    /** A page of ranked results: the page's last result at most {@value #MAX_RANKED_DEPTH} deep. */
    public static Paging ranked(int page, int size) {
        Paging paging = new Paging(page, size);
        if (((long) page + 1) * size > MAX_RANKED_DEPTH) {
            throw new InvalidInputException("Results are available " + MAX_RANKED_DEPTH + " deep at most: (page + 1) * size must be at most "
                    + MAX_RANKED_DEPTH + ". Refine the query instead.");
        }
        return paging;
    }

    /** Rows before this page. */
    public int offset() {
        return page * size;
    }

    /** Rows to fetch: the page plus one that only tells whether there is a next page. */
    public int probe() {
        return size + 1;
    }
}
