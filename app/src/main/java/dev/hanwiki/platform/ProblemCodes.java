package dev.hanwiki.platform;

import org.springframework.http.HttpStatusCode;

/** The stable machine codes of problem responses that are not owned by a single feature. */
public final class ProblemCodes {

    public static final String INVALID_INPUT = "INVALID_INPUT";
    public static final String NOT_FOUND = "NOT_FOUND";
    public static final String METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED";
    public static final String NOT_ACCEPTABLE = "NOT_ACCEPTABLE";
    public static final String UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE";
    public static final String PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE";
    public static final String URI_TOO_LONG = "URI_TOO_LONG";
    public static final String HEADERS_TOO_LARGE = "HEADERS_TOO_LARGE";
    public static final String TOO_MANY_REQUESTS = "TOO_MANY_REQUESTS";
    public static final String CONFLICT = "CONFLICT";
    public static final String PRECONDITION_REQUIRED = "PRECONDITION_REQUIRED";
    public static final String DATABASE_UNAVAILABLE = "DATABASE_UNAVAILABLE";
    public static final String SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE";
    /** The primary did not confirm a write in time: it may still commit, so read before retrying. */
    public static final String WRITE_NOT_CONFIRMED = "WRITE_NOT_CONFIRMED";
    /** The primary has no disk space for the write: it refused it, nothing was saved; retry later. */
    public static final String DATABASE_FULL = "DATABASE_FULL";
    /** The node is past its concurrency limit and shed this request at once: retry later (ADR 0093). */
    public static final String OVERLOADED = "OVERLOADED";
    public static final String INTERNAL_ERROR = "INTERNAL_ERROR";

    /** No token on a call that needs one. */
    public static final String AUTHENTICATION_REQUIRED = "AUTHENTICATION_REQUIRED";
    /** A token that is malformed, not signed by us or lacks required claims. */
    public static final String INVALID_TOKEN = "INVALID_TOKEN";
    public static final String TOKEN_EXPIRED = "TOKEN_EXPIRED";
    /** A token whose holder logged out (its id is on the blacklist). */
    public static final String TOKEN_REVOKED = "TOKEN_REVOKED";
    /** The blacklist cannot be consulted, so no token can be trusted: fail closed. */
    public static final String AUTH_UNAVAILABLE = "AUTH_UNAVAILABLE";
    public static final String FORBIDDEN = "FORBIDDEN";
    /** A failed-login throttle (per account, or per address and account) is closed: retry later. */
    public static final String LOGIN_THROTTLED = "LOGIN_THROTTLED";
    /** This user's write bucket is empty: retry later. */
    public static final String WRITE_RATE_LIMITED = "WRITE_RATE_LIMITED";
    /** A cookie-authenticated state change that a cross-site form could have sent. */
    public static final String CROSS_SITE_REQUEST = "CROSS_SITE_REQUEST";

    private ProblemCodes() {
    }

    /** Code for a framework-raised error, derived from its status so every response has one. */
    static String forStatus(HttpStatusCode status) {
        return forStatus(status.value());
    }

    static String forStatus(int status) {
        return switch (status) {
            case 400 -> INVALID_INPUT;
            case 401 -> AUTHENTICATION_REQUIRED;
            case 403 -> FORBIDDEN;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 409 -> CONFLICT;
            case 413 -> PAYLOAD_TOO_LARGE;
            case 414 -> URI_TOO_LONG;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 428 -> PRECONDITION_REQUIRED;
            case 429 -> TOO_MANY_REQUESTS;
            case 431 -> HEADERS_TOO_LARGE;
            case 503 -> SERVICE_UNAVAILABLE;
            default -> status >= 500 ? INTERNAL_ERROR : "HTTP_" + status;
        };
    }
}
