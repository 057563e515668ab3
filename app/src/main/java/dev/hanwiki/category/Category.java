package dev.hanwiki.category;

/** One node of the category tree; field names are part of the API contract. */
record Category(long id, String name, Long parentId) {
}
