package dev.hanwiki.platform;

/**
 * Turns a presented token into a user. Implemented by the auth feature; platform only knows
 * where tokens travel ({@link TokenTransport}) and what the outcome means for the request.
 */
public interface TokenAuthenticator {

    TokenCheck check(String token);
}
