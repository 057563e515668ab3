package dev.hanwiki.platform;

import java.time.Instant;

/**
 * The caller of a request, as established from a valid token that is not revoked.
 *
 * @param id        the user's id
 * @param tokenId   the token's {@code jti}, which logout puts on the blacklist
 * @param expiresAt when the token stops being accepted
 */
public record AuthenticatedUser(long id, String tokenId, Instant expiresAt) {
}
