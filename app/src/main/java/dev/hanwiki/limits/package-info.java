/**
 * How often a client may try: failed-login throttles per account and per (address, account),
 * write limits per user, and the trusted load-generator allowlist (ADR 0085, 0086). State lives
 * in the auth Redis (token buckets updated by one Lua script), so both nodes share it. It must
 * never guess when that Redis cannot answer: it fails closed like the token blacklist
 * (ADR 0012), and it never limits anonymous reads.
 * <p>Allowed dependencies (ModuleGraphTest, ADR 0075): platform.
 */
package dev.hanwiki.limits;
