package dev.hanwiki.platform;

import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/** The HTTP method of the request the current thread serves, for code below the controllers. */
public final class RequestMethod {

    private RequestMethod() {
    }

    /** True only inside a HEAD request (false outside any request, e.g. on background threads). */
    public static boolean isHead() {
        return RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes servlet
                && "HEAD".equals(servlet.getRequest().getMethod());
    }
}
