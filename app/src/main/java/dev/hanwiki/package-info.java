/**
 * Hanwiki service: a Korean-first wiki and search backend. Code is packaged by feature
 * ({@code post}, {@code search}, {@code cdc}) plus {@code platform} for cross-cutting wiring.
 * Writes go to the MySQL/MariaDB primary only; every node's search index is a projection of
 * the binlog (Debezium to Kafka), never written by the request path.
 */
package dev.hanwiki;
