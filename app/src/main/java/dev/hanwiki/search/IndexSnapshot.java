package dev.hanwiki.search;

import java.util.List;

/**
 * Every live document of one searcher, in id order. {@code maxDoc} counts deleted-but-unmerged
 * documents too; a duplicate id would show as the same id twice in {@code docs}.
 */
public record IndexSnapshot(int numDocs, int maxDoc, List<DocVersion> docs) {

    public IndexSnapshot {
        docs = List.copyOf(docs);
    }
}
