package dev.hanwiki.platform;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The servlet error page ({@code /error}), replacing Boot's JSON/HTML one. Requests end up here
 * when something outside Spring MVC failed: a filter threw, or the container itself called
 * {@code sendError}. The body is the same problem+json as everywhere else; a 5xx never says why.
 */
@RestController
class ProblemErrorController implements ErrorController {

    private static final Logger log = LoggerFactory.getLogger(ProblemErrorController.class);

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<byte[]> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer value && value >= 400 && value <= 599 ? value : 500;
        Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        if (status >= 500 && request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof Throwable failure) {
            log.error("Request to {} failed outside Spring MVC", uri, failure);
        }
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(ProblemBodies.json(status, null, null, uri instanceof String path ? path : null));
    }
}
