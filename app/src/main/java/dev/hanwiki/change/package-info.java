/**
 * The post change stream as the features see it: the {@link dev.hanwiki.change.PostsIndexed}
 * event a node publishes after applying changes to its index, and the
 * {@link dev.hanwiki.change.ChangeStream} that lets a feature run its own consumer group over
 * the posts topic. It holds types only, no behaviour, so the publisher ({@code cdc}) and the
 * listeners ({@code search}, {@code post}, {@code cache}, {@code autocomplete}) meet here without
 * depending on each other (ADR 0075).
 * <p>Allowed dependencies (ModuleGraphTest, ADR 0075): none.
 */
package dev.hanwiki.change;
