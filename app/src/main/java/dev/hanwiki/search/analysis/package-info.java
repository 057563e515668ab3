/**
 * Korean and English text analysis: the Nori chains for documents and queries, the user
 * dictionary and the common-term word pairs ({@code CommonGrams}) they are built with, and
 * Hangul arithmetic (jamo, chosung, keyboard layout). It knows nothing of the index schema or
 * of posts; it must stay free of I/O beyond parsing the dictionary and list text it is handed.
 * <p>Allowed dependencies (ModuleGraphTest, ADR 0075): none.
 */
package dev.hanwiki.search.analysis;
