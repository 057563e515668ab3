/**
 * Full-text search over posts: the node's Lucene index ({@link dev.hanwiki.search.PostIndex},
 * sole owner of the IndexWriter, SearcherManager and refresh thread), query parsing and the
 * search endpoint. It never reads posts from the database: documents arrive from the change
 * stream (package {@code cdc}), so the index is a rebuildable projection.
 */
package dev.hanwiki.search;
