/**
 * The search language as users type it ({@link dev.hanwiki.search.query.SearchSyntax}: every
 * input parses, nothing throws) and query-time synonyms. It knows no Lucene field names; the
 * search package turns its clauses into queries.
 * <p>Allowed dependencies (ModuleGraphTest, ADR 0075): search.analysis.
 */
package dev.hanwiki.search.query;
