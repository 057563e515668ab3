/**
 * The tiered cache: L1 is a per-node Caffeine async cache (concurrent misses for one key load
 * once), L2 is three Redis shards behind a consistent-hash ring, each behind a per-shard
 * timeout and circuit breaker so that a dead or slow shard is a miss, never an error.
 * It also runs the one cluster-wide L2 invalidator (a Kafka consumer group over the posts
 * change stream). This package never decides what is fresh (the features that own a region
 * do, from the change stream, never from writers), and it must never fail a request because
 * Redis is unwell.
 * <p>Allowed dependencies (ModuleGraphTest, ADR 0075): platform, change, lifecycle.
 */
package dev.hanwiki.cache;
