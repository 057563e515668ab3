package dev.hanwiki.limits;

/** The kinds of writes that have a limit per user, each its own bucket. */
enum WriteAction {
    POST, EDIT, LIKE, DELETE
}
