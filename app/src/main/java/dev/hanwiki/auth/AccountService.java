package dev.hanwiki.auth;

import dev.hanwiki.limits.LoginThrottle;
import dev.hanwiki.platform.AuthenticatedUser;
import dev.hanwiki.platform.PrimaryWrites;
import java.time.Clock;
import java.time.Duration;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;

/**
 * Account use cases. Passwords are hashed outside any transaction (the hash is deliberately
 * slow). Duplicates are checked before hashing, for a fast answer, and again by the unique keys,
 * which settle races between two sign-ups for the same name.
 */
@Service
class AccountService {

    /** A signed-in user and the token that proves it. */
    record Session(UserView user, IssuedToken token) {
    }

    private final UserRepository users;
    private final PasswordEncoder passwords;
    private final JwtTokens tokens;
    private final TokenBlacklist blacklist;
    private final PrimaryWrites writes;
    private final Clock clock;
    private final LoginThrottle throttle;
    private final PasswordStrength strength;
    /** Compared against when the username is unknown, so both failures cost the same time. */
    private final String decoyHash;

    AccountService(UserRepository users, PasswordEncoder passwords, JwtTokens tokens, TokenBlacklist blacklist,
            PrimaryWrites writes, Clock clock, LoginThrottle throttle, PasswordStrength strength) {
        this.users = users;
        this.passwords = passwords;
        this.tokens = tokens;
        this.blacklist = blacklist;
        this.writes = writes;
        this.clock = clock;
        this.throttle = throttle;
        this.strength = strength;
        this.decoyHash = passwords.encode("decoy-password-never-matches");
    }

    Session signup(SignupRequest request) {
        String username = AccountRules.username(request.username());
        String nickname = AccountRules.nickname(request.nickname());
        String password = AccountRules.password(request.password());
        strength.check(password, username, nickname);
        rejectTaken(username, nickname);
        String hash = passwords.encode(password);
        long id;
        try {
            id = writes.inTransaction(() -> users.insert(username, nickname, hash, clock.instant()));
        } catch (DuplicateKeyException e) {
            rejectTaken(username, nickname);
            throw e;
        }
        UserView user = users.findOnPrimary(id).orElseThrow(() -> new IllegalStateException("user " + id + " vanished"));
        return new Session(user, tokens.issue(id));
    }

    /**
     * Throttled per account and per (address, account) before the password is even hashed
     * ({@link LoginThrottle}); only failures count against the buckets.
     */
    Session login(LoginRequest request, String address) {
        LoginThrottle.Attempt attempt = throttle.admit(request.username(), address);
        var credentials = users.credentials(request.username());
        String hash = credentials.map(UserRepository.Credentials::passwordHash).orElse(null);
        boolean matches = passwords.matches(request.password(), hash == null ? decoyHash : hash);
        if (credentials.isEmpty() || hash == null || !matches) {
            throw new InvalidCredentialsException();
        }
        long id = credentials.get().id();
        UserView user = users.findOnPrimary(id).orElseThrow(InvalidCredentialsException::new);
        throttle.succeeded(attempt);
        return new Session(user, tokens.issue(id));
    }

    /** Revokes the caller's token until it would have expired anyway. */
    void logout(AuthenticatedUser caller) {
        Duration remaining = Duration.between(clock.instant(), caller.expiresAt());
        // One extra second, so that the entry outlives the token even across a clock tick.
        blacklist.revoke(caller.tokenId(), remaining.plusSeconds(1));
    }

    /** Revokes every token of the caller's account, on every device (the caller's own included). */
    void logoutEverywhere(AuthenticatedUser caller, Duration tokenLifetime) {
        blacklist.revokeAll(caller.id(), clock.instant(), tokenLifetime);
    }

    UserView me(AuthenticatedUser caller) {
        // A valid token names an account that exists on the primary; the replica may simply not
        // have it yet (a call right after sign-up), so ask the primary before calling it unknown.
        return users.find(caller.id()).or(() -> users.findOnPrimary(caller.id())).orElseThrow(UserNotFoundException::new);
    }

    Availability usernameAvailability(String value) {
        String username = AccountRules.username(value);
        return new Availability(username, !users.taken(UserRepository.Name.USERNAME, username));
    }

    Availability nicknameAvailability(String value) {
        String nickname = AccountRules.nickname(value);
        return new Availability(nickname, !users.taken(UserRepository.Name.NICKNAME, nickname));
    }

    private void rejectTaken(String username, String nickname) {
        if (users.takenOnPrimary(UserRepository.Name.USERNAME, username)) {
            throw new UsernameTakenException();
        }
        if (users.takenOnPrimary(UserRepository.Name.NICKNAME, nickname)) {
            throw new NicknameTakenException();
        }
    }
}
