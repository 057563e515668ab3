/**
 * Hanwiki service: a Korean-first wiki and search backend. Code is packaged by feature
 * ({@code post}, {@code search}, {@code cdc}) plus {@code platform} for cross-cutting wiring.
 * Writes go to the MySQL/MariaDB primary only; every node's search index is a projection of
 * the binlog (Debezium to Kafka), never written by the request path. Every package is a
 * module; its note ends with the modules it may use, which {@code ModuleGraphTest} enforces
 * together with the absence of cycles (ADR 0075).
 */
package dev.hanwiki;
