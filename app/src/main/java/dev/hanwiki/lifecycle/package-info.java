/**
 * The one way background work runs in this service (ADR 0092): a {@link dev.hanwiki.lifecycle.Background}
 * is a Spring {@code SmartLifecycle} that owns one named thread (and, on first use, a low-priority
 * helper and workers for parallel pieces of its work), creates it in {@code start()}
 * (never in a constructor), and stops it in {@code stop()} in phase order ({@link dev.hanwiki.lifecycle.Phases});
 * {@link dev.hanwiki.lifecycle.Threads} names the few executors Spring itself closes. No other
 * package creates a thread or an executor: {@code LifecycleConventionTest} fails if one does.
 * It must never hold feature logic.
 * <p>Allowed dependencies (ModuleGraphTest, ADR 0075): none.
 */
package dev.hanwiki.lifecycle;
