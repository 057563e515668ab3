package dev.hanwiki.platform;

/**
 * The success envelope every API call returns: {@code {"status": 200, "data": ...}}.
 * Clients of this kind of service read {@code status} from the body, so it mirrors the HTTP status.
 */
public record ApiResponse<T>(int status, T data) {

    public static <T> ApiResponse<T> ok(T data) {
        return new ApiResponse<>(200, data);
    }

    public static <T> ApiResponse<T> created(T data) {
        return new ApiResponse<>(201, data);
    }
}
