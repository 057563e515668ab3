package dev.hanwiki.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.hanwiki.platform.AccountAges;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * Account creation times for {@link AccountAges}: read once per account (replica, else
 * primary) and kept in memory, since they never change. An account the database cannot be
 * asked about counts as new: the caller then trusts it less, never more.
 */
@Component
class AccountCreationTimes implements AccountAges {

    private final UserRepository users;
    private final Clock clock;
    private final Cache<Long, Instant> created = Caffeine.newBuilder().maximumSize(200_000).build();

    AccountCreationTimes(UserRepository users, Clock clock) {
        this.users = users;
        this.clock = clock;
    }

    @Override
    public boolean olderThan(long userId, Duration age) {
        Instant at = created.getIfPresent(userId);
        if (at == null) {
            try {
                Optional<UserView> user = users.find(userId).or(() -> users.findOnPrimary(userId));
                if (user.isEmpty()) {
                    return false;
                }
                at = user.get().createdAt();
                created.put(userId, at);
            } catch (DataAccessException e) {
                return false;
            }
        }
        return !at.plus(age).isAfter(clock.instant());
    }
}
