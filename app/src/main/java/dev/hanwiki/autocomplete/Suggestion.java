package dev.hanwiki.autocomplete;

/**
 * One autocomplete entry: a page's title ({@code kind} {@code title}, with the page's
 * {@code id}) or a popular past search ({@code kind} {@code query}, {@code id} null).
 */
public record Suggestion(Long id, String title, String kind) {

    static Suggestion ofTitle(long id, String title) {
        return new Suggestion(id, title, "title");
    }

    static Suggestion ofQuery(String query) {
        return new Suggestion(null, query, "query");
    }
}
