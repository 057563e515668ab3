package dev.hanwiki.platform;

import java.time.Duration;

/**
 * How old an account is, for features that must not trust free, fresh accounts (popular
 * queries, ADR 0089). Implemented by {@code auth}; answers from memory after the first call
 * per account (creation times never change).
 */
public interface AccountAges {

    /** @return whether the account exists and was created at least {@code age} ago */
    boolean olderThan(long userId, Duration age);
}
