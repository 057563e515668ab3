/**
 * Accounts and tokens: sign-up, login, logout, the current user, and the check that every
 * presented token is genuine, current and not revoked (a signed JWT plus the blacklist in the
 * auth Redis). Platform's security chain calls it through {@link dev.hanwiki.platform.TokenAuthenticator}.
 * It must never accept a token it could not check against the blacklist: if that Redis is
 * unreachable, authenticated calls fail closed.
 * <p>Allowed dependencies (ModuleGraphTest, ADR 0075): platform, limits.
 */
package dev.hanwiki.auth;
