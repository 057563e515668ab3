package dev.hanwiki.autocomplete;

/** The score titles are ranked by: the search ranking's popularity, {@code views + 10 * likes}, unquantized. */
final class Popularity {

    static final int LIKE_WEIGHT = 10;

    private Popularity() {
    }

    static double score(long views, long likes) {
        return Math.max(0, views) + (double) LIKE_WEIGHT * Math.max(0, likes);
    }
}
