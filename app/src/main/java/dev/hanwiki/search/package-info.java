/**
 * Full-text search over posts: the node's Lucene index ({@link dev.hanwiki.search.PostIndex},
 * sole owner of the IndexWriter and SearcherManager and the read face every feature uses; its
 * write side {@link dev.hanwiki.search.PostIndexWriter} is for the indexer in {@code cdc} alone,
 * which {@code ModuleGraphTest} checks), the search path
 * ({@code SearchEngine}: query language, ranking, bounded facets, snippets, suggestions) and
 * the search endpoint. Analysis lives in {@code search.analysis}, the query syntax and
 * synonyms in {@code search.query}. It never reads posts from the database to index them:
 * documents arrive from the change stream (package {@code cdc}), so the index is a
 * rebuildable projection; the database is only read to decorate a page of hits (nicknames,
 * live counts) and for category names, and a search never fails because the database does.
 * Answers are cached ({@code SearchCache}) under a staleness bound, never evicted by writers;
 * a new page drops only the answers whose query terms it holds ({@code SearchTerms}, ADR 0099).
 * <p>Allowed dependencies (ModuleGraphTest, ADR 0075): platform, cache, change, search.analysis, search.query, lifecycle.
 */
package dev.hanwiki.search;
