/**
 * Change data capture: applies Debezium's change events for the {@code posts} table (from
 * Kafka) to this node's search index, and reports how far the index has caught up. One thread
 * owns the KafkaConsumer. Resume positions live in the Lucene commit, never in Kafka's group
 * offsets, so the index and its offsets can never disagree. Every change is applied by row
 * version, and deletes leave version tombstones for {@code tombstone-retention} (ADR 0040), so
 * replays, duplicates and late older events change nothing. It must never write to the database.
 * <p>Allowed dependencies (ModuleGraphTest, ADR 0075): platform, change, search.
 */
package dev.hanwiki.cdc;
