package dev.hanwiki.change;

/**
 * Whether this node's index has caught up with the change stream: every partition applied up
 * to the end it had when the indexer started (then it stays true). The indexer answers it;
 * features that must not act on a partial index (the autocomplete rebuild) ask it, rather than
 * guessing from the index's bulk mode.
 */
public interface IndexCatchUp {

    boolean caughtUp();
}
