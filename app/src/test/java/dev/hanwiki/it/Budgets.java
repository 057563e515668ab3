package dev.hanwiki.it;

import java.time.Duration;

/**
 * How long a drill that redoes corpus-wide work may take: infra/it_budgets.py scales these to the
 * posts the stack holds (measured rates, stated there) and {@code make it} passes them as system
 * properties; the pom's defaults are an empty stack's. A test that works on posts of its own
 * never needs one.
 */
final class Budgets {

    private Budgets() {
    }

    /** A node re-indexing every post: rebuilt from nothing, or both nodes after a restore. */
    static Duration reindex() {
        return seconds("it.budget.index");
    }

    /** An autocomplete rebuild writing every title's keys. */
    static Duration autocompleteRebuild() {
        return seconds("it.budget.autocomplete");
    }

    private static Duration seconds(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set: run the ITs through "
                    + "`make it` (or pass the output of python3 infra/it_budgets.py to Maven)");
        }
        return Duration.ofSeconds(Long.parseLong(value.trim()));
    }
}
