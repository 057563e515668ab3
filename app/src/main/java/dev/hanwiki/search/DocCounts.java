package dev.hanwiki.search;

/** Live documents and all documents including deleted-but-unmerged ones, from one searcher. */
public record DocCounts(int numDocs, int maxDoc) {
}
