package dev.hanwiki.search;

/** One live document of the index: its post id and the row version it reflects. */
public record DocVersion(long id, long version) {
}
