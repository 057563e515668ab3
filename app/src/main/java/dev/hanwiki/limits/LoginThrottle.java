package dev.hanwiki.limits;

import java.time.Duration;
import java.util.Locale;
import org.springframework.stereotype.Component;

/**
 * Failed-login throttles (ADR 0085). Two token buckets guard an account:
 * <ul>
 *   <li>per (address, account): a guesser at one address gets {@code pair-burst} tries, then
 *       one per {@code pair-every};</li>
 *   <li>per account, for attempts from addresses the account has not signed in from recently:
 *       guessing from rotating addresses gets {@code account-burst} tries, then one per
 *       {@code account-every}. The owner at a known address is never held by it, so other
 *       people's failures do not lock them out.</li>
 * </ul>
 * Every attempt takes its tokens BEFORE the password is checked (so parallel guesses cannot
 * overrun a bucket) and a successful one gives them back: only failures count. Nothing here
 * depends on whether the account exists, so the throttle tells nothing about that either.
 * There is no per-address bucket: a shared address (a campus, carrier-grade NAT) has only
 * nginx's generous per-address ceiling.
 */
@Component
public class LoginThrottle {

    /** What an admitted attempt took, to give back if it succeeds. */
    public record Attempt(String account, String address, boolean tookAccountToken) {
    }

    private final LimitStore store;
    private final LimitSettings.Login settings;

    LoginThrottle(LimitStore store, LimitSettings settings) {
        this.store = store;
        this.settings = settings.login();
    }

    /**
     * @throws RateLimitedException 429 LOGIN_THROTTLED with the time to wait, without looking
     *                              at the password
     */
    public Attempt admit(String username, String address) {
        String account = username.toLowerCase(Locale.ROOT);
        Duration wait = store.bucket(pairKey(account, address), settings.pair(), LimitStore.TAKE);
        if (!wait.isZero()) {
            throw throttled(wait);
        }
        boolean known = store.exists(knownKey(account, address));
        if (!known) {
            wait = store.bucket(accountKey(account), settings.account(), LimitStore.TAKE);
            if (!wait.isZero()) {
                store.bucket(pairKey(account, address), settings.pair(), LimitStore.GIVE_BACK);
                throw throttled(wait);
            }
        }
        return new Attempt(account, address, !known);
    }

    /** The password was right: the attempt costs nothing, and this address becomes known for the account. */
    public void succeeded(Attempt attempt) {
        store.bucket(pairKey(attempt.account(), attempt.address()), settings.pair(), LimitStore.GIVE_BACK);
        if (attempt.tookAccountToken()) {
            store.bucket(accountKey(attempt.account()), settings.account(), LimitStore.GIVE_BACK);
        }
        store.mark(knownKey(attempt.account(), attempt.address()), settings.knownAddressTtl());
    }

    private static RateLimitedException throttled(Duration wait) {
        return new RateLimitedException(RateLimitedException.LOGIN_THROTTLED,
                "Too many failed sign-ins for this account. Try again in {s} seconds.", wait);
    }

    static String accountKey(String account) {
        return "lt:a:" + account;
    }

    static String pairKey(String account, String address) {
        return "lt:p:" + address + "|" + account;
    }

    static String knownKey(String account, String address) {
        return "lt:k:" + address + "|" + account;
    }
}
