/**
 * Korean and English text analysis: the Nori chains for documents and queries, the user
 * dictionary they are built with, and Hangul arithmetic (jamo, chosung, keyboard layout). It
 * knows nothing of the index schema or of posts; it must stay free of I/O beyond parsing the
 * dictionary text it is handed.
 */
package dev.hanwiki.search.analysis;
