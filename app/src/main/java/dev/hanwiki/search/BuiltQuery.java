package dev.hanwiki.search;

import java.util.List;
import org.apache.lucene.search.Query;

/**
 * The Lucene queries for one search text.
 *
 * @param ranked          what the page of hits is collected with (text, boosts, filters)
 * @param matching        the same match set without boosts and category filters: facets
 * @param relaxed         all-but-one of the required parts, tried when {@code ranked} finds
 *                        nothing and there are at least three; null otherwise
 * @param relaxedMatching facets for {@code relaxed}
 * @param highlight       the positive text parts on the body, for snippets; null if none
 * @param plainWords      the plain words as typed, for suggestions
 * @param searchable      false when the text holds nothing to search for
 */
record BuiltQuery(Query ranked, Query matching, Query relaxed, Query relaxedMatching, Query highlight,
        List<String> plainWords, boolean searchable) {

    static BuiltQuery nothing(List<String> plainWords) {
        return new BuiltQuery(null, null, null, null, null, plainWords, false);
    }
}
