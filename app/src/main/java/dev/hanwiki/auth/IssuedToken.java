package dev.hanwiki.auth;

import java.time.Instant;

/** A freshly signed token and the facts the cookie needs about it. */
record IssuedToken(String value, String id, Instant expiresAt) {
}
