/**
 * Autocomplete of page titles and of popular past searches as they are typed (raw text, the
 * jamo of a syllable being typed, or initial consonants): top entries per prefix in Redis
 * sorted sets spread over the cache shards, kept in step with the change stream by each node,
 * rebuilt into a new key version and switched atomically on demand, and answered from the
 * node's own index when Redis cannot. Searches are counted per node and per distinct client
 * without a Redis call per request. It never fails a request because Redis is unwell, never
 * shows an entry its current record does not confirm, and never writes to the database or
 * the index.
 * <p>Allowed dependencies (ModuleGraphTest, ADR 0075): platform, cache, change, search, search.analysis, lifecycle.
 */
package dev.hanwiki.autocomplete;
