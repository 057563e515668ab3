/**
 * Change data capture: applies Debezium's change events for the {@code posts} table and its
 * {@code post_counters} rows (one topic, ADR 0080) to this node's search index, and reports how far the index has caught up. One thread
 * owns the KafkaConsumer. Resume positions live in the Lucene commit, never in Kafka's group
 * offsets, so the index and its offsets can never disagree. Every change is applied by row
 * version, and deletes leave version tombstones for {@code tombstone-retention} (ADR 0040), so
 * replays, duplicates and late older events change nothing; counter rows carry their own
 * version and reach the index as doc-values updates, never a re-analysis of the page. It must
 * never write to the database. The pages of a batch's upserts may be analysed on the consumer's
 * workers before the batch is applied ({@code analysis-threads}, ADR 0097), but every decision and
 * every write stays on the one indexer thread, in stream order.
 * <p>Allowed dependencies (ModuleGraphTest, ADR 0075): platform, change, search, lifecycle.
 */
package dev.hanwiki.cdc;
