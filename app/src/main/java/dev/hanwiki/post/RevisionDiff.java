package dev.hanwiki.post;

/**
 * A line diff between two versions of a post. {@code unified} is a standard unified diff of the
 * content (3 lines of context; empty when the content is the same), which diff viewers render
 * as is; {@code added} and {@code removed} count changed lines.
 */
record RevisionDiff(
        long postId,
        long from,
        long to,
        boolean titleChanged,
        boolean categoryChanged,
        int added,
        int removed,
        String unified) {
}
