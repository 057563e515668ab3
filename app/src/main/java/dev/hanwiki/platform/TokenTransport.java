package dev.hanwiki.platform;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.web.util.WebUtils;

/**
 * Where a token travels: an {@code Authorization: Bearer} header or the {@code token} cookie
 * (its name is part of the API contract). The header wins when both are present, so an API
 * client is never overruled by a stale browser cookie.
 */
public final class TokenTransport {

    public static final String COOKIE = "token";
    private static final String BEARER = "bearer ";
    /** Far above any token we issue; longer values are not tokens and are not parsed. */
    static final int MAX_TOKEN_LENGTH = 4096;

    private TokenTransport() {
    }

    /** @return the presented token, or null if the request carries none */
    static String resolve(HttpServletRequest request) {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header != null && header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return bounded(header.substring(BEARER.length()).strip());
        }
        Cookie cookie = WebUtils.getCookie(request, COOKIE);
        return cookie == null ? null : bounded(cookie.getValue());
    }

    private static String bounded(String token) {
        if (token == null || token.isEmpty()) {
            return null;
        }
        // An over-long value is still "a token was presented": it is rejected, not ignored.
        return token.length() > MAX_TOKEN_LENGTH ? token.substring(0, MAX_TOKEN_LENGTH) : token;
    }
}
