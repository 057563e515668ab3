package dev.hanwiki.category;

import org.jspecify.annotations.Nullable;

/** One node of the category tree; field names are part of the API contract. */
record Category(long id, String name, @Nullable Long parentId) {
}
