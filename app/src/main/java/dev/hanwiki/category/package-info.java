/**
 * Categories: a small tree (id, name, parentId) seeded by migrations, with ids 1-30 stable
 * across installs. Read-only for the API. It must never renumber or reuse an id: clients, the
 * corpus generator and the search facets refer to categories by id.
 * <p>Allowed dependencies (ModuleGraphTest, ADR 0075): platform.
 */
package dev.hanwiki.category;
