/**
 * Posts: the write API (create, edit, soft delete; one primary transaction each, with a
 * revision row per saved version and optimistic version checks), detail and list reads from
 * the replica through the tiered cache ({@code PostCaches}), history (revisions and diffs),
 * likes, and view counting buffered in memory. Writes must never touch the search index or any
 * cache, and a read must never write to the database: the index and caches follow the binlog
 * (caches are evicted from {@code PostsIndexed} and the shared L2 invalidator), views are
 * flushed in batches by one thread.
 * <p>Allowed dependencies (ModuleGraphTest, ADR 0075): platform, cache, change, lifecycle.
 */
package dev.hanwiki.post;
