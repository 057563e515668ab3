package dev.hanwiki.search;

/**
 * A post's counts as the index ranks it (ADR 0080): views, likes and the version of the
 * {@code post_counters} row they come from. Version 0 means counts carried by a page row from
 * before counters had their own table (or none at all): any counter-row change supersedes them.
 */
public record PostCounters(long views, long likes, long version) {

    public static final PostCounters NONE = new PostCounters(0, 0, 0);

    /** The popularity bucket these counts fall in (ADR 0022). */
    public int bucket() {
        return Popularity.bucket(views, likes);
    }
}
