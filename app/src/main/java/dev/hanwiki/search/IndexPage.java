package dev.hanwiki.search;

import java.util.List;

/** The documents of one result page and whether at least one more match exists after it. */
record IndexPage(List<PostDocument> hits, boolean hasMore) {

    static final IndexPage EMPTY = new IndexPage(List.of(), false);

    IndexPage {
        hits = List.copyOf(hits);
    }
}
