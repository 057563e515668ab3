package dev.hanwiki.autocomplete;

/** One autocompleted title and the page it belongs to. */
public record Suggestion(long id, String title) {
}
