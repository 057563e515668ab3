package dev.hanwiki.search;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Category names by id, for {@code categoryFacets} keys and {@code category:name} queries. The
 * node reads them from the database ({@link DatabaseCategories}); tools and tests pass a map.
 */
interface Categories {

    /** Every known category, id to name (empty while unknown, e.g. the database is down). */
    Map<Long, String> names();

    /** The id of the category called {@code name}, ignoring case and spaces (세계지리 = 세계 지리). */
    default Optional<Long> idOf(String name) {
        String wanted = normalize(name);
        return names().entrySet().stream()
                .filter(e -> normalize(e.getValue()).equals(wanted))
                .map(Map.Entry::getKey)
                .findFirst();
    }

    /** The facet key of a category id: its name, or the id itself when the name is unknown. */
    default String keyOf(long id) {
        String name = names().get(id);
        return name != null ? name : Long.toString(id);
    }

    static Categories of(Map<Long, String> names) {
        Map<Long, String> copy = Map.copyOf(names);
        return () -> copy;
    }

    private static String normalize(String name) {
        return name.replaceAll("\\s+", "").toLowerCase(Locale.ROOT);
    }
}
