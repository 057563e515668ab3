package dev.hanwiki.search;

/**
 * Published on the request thread after a search's first page was answered with at least one
 * result (from the cache or the index): what was searched and by whom. Listeners (autocomplete
 * counts popular queries) must be quick and must never throw.
 *
 * @param query   the text as sent ({@code q})
 * @param userId  the signed-in searcher, or null
 * @param address the address nginx saw ({@code X-Real-IP}, which nginx always overwrites; else
 *                the connection's): never a header a client chose
 */
public record SearchAnswered(String query, Long userId, String address) {
}
