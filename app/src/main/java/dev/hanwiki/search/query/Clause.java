package dev.hanwiki.search.query;

/**
 * One element of a search text. {@code text} is what the user typed for it, without the
 * operator and quotes; {@code negated} for a leading {@code -}.
 */
public record Clause(Kind kind, String text, boolean negated) {

    public enum Kind {
        /** A plain word: must match, in the title or the body. */
        WORD,
        /** {@code "exact phrase"}: its words adjacent and in order. */
        PHRASE,
        /** {@code intitle:word} or {@code intitle:"a phrase"}: must match in the title. */
        TITLE,
        /** {@code category:name} or {@code category:"세계 지리"}: only pages of that category. */
        CATEGORY,
        /** A word of typed consonants only ({@code ㄷㅎㅁㄱ}): titles with those initials. */
        CHOSUNG
    }
}
