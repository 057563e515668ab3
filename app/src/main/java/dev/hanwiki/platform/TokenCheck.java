package dev.hanwiki.platform;

/** The outcome of checking one presented token. */
public sealed interface TokenCheck {

    /** The token is genuine, current and not revoked. */
    record Valid(AuthenticatedUser user) implements TokenCheck {
    }

    /** The token must not be trusted; {@code code} is one of the token codes of {@link ProblemCodes}. */
    record Rejected(String code, String detail) implements TokenCheck {
    }

    /** Whether the token was revoked cannot be known right now: refuse it, but as an outage (503). */
    record Unavailable(String detail) implements TokenCheck {
    }
}
