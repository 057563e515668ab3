/**
 * Cross-cutting wiring shared by every feature: the two connection pools (primary for writes,
 * replica for reads), the response envelope, the problem+json error mapping, the {@code /api/v1}
 * alias of {@code /api/v1.0} and node identity.
 * It must never hold feature logic: features depend on platform, never the other way round.
 * <p>Allowed dependencies (ModuleGraphTest, ADR 0075): lifecycle.
 */
package dev.hanwiki.platform;
