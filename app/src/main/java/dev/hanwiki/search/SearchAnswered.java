package dev.hanwiki.search;

/**
 * Published on the request thread after a search's first page was answered with at least one
 * result (from the cache or the index): what was searched and by whom. Listeners (autocomplete
 * counts popular queries) must be quick and must never throw.
 *
 * @param query  the text as sent ({@code q})
 * @param client who searched: {@code u:<user id>} when signed in, else {@code a:<address>} (the
 *               address nginx saw, from {@code X-Real-IP}, else the connection's)
 */
public record SearchAnswered(String query, String client) {
}
