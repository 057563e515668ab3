package dev.hanwiki.platform;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.ConstraintViolationException;
import org.apache.tomcat.util.http.InvalidParameterException;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.i18n.LocaleContextHolder;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * The one place that turns exceptions into RFC 9457 problem responses. Every body carries a
 * stable {@code code} and repeats {@code detail} as {@code message}; 5xx bodies carry a generic
 * detail only, because exception messages can contain SQL, paths or stack fragments. The base
 * class already maps Spring MVC's own exceptions (405, 415, missing parameter, type mismatch,
 * unknown path, ...) to statuses.
 */
@RestControllerAdvice
class ProblemAdvice extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);
    private static final String GENERIC_DETAIL = "An unexpected error occurred.";
    /** Space comes back by an operator's hand, not in seconds (runbook disk-full). */
    private static final int DATABASE_FULL_RETRY_S = 30;

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ProblemDetail> handleApiException(ApiException ex, HttpServletRequest request) {
        if (ex.saysNothingAboutLoad()) {
            request.setAttribute(OverloadFilter.NOT_A_LOAD_SIGNAL, Boolean.TRUE);
        }
        ResponseEntity<ProblemDetail> response = problem(ex.status(), ex.code(), ex.getMessage());
        ex.properties().forEach(response.getBody()::setProperty);
        if (ex.retryAfter().isPresent()) {
            long seconds = Math.max(1, (ex.retryAfter().get().toMillis() + 999) / 1000);
            return ResponseEntity.status(ex.status()).header(HttpHeaders.RETRY_AFTER, Long.toString(seconds))
                    .body(response.getBody());
        }
        return response;
    }

    @ExceptionHandler(ConstraintViolationException.class)
    ResponseEntity<ProblemDetail> handleConstraintViolation(ConstraintViolationException ex) {
        String detail = ex.getConstraintViolations().stream()
                .map(v -> v.getPropertyPath() + ": " + v.getMessage())
                .sorted()
                .collect(Collectors.joining("; "));
        return problem(HttpStatus.BAD_REQUEST, ProblemCodes.INVALID_INPUT, detail);
    }

    /**
     * A database outage is not a bug in the request: say so with 503 so clients may retry. A
     * {@link TransactionSystemException} is the transaction manager failing to talk to the
     * database (here: a rollback on a connection the primary's restart had closed, which hides
     * the link failure that caused it); the server rolls such a transaction back itself.
     */
    @ExceptionHandler({DataAccessResourceFailureException.class, RecoverableDataAccessException.class,
            TransientDataAccessResourceException.class, CannotCreateTransactionException.class,
            TransactionSystemException.class})
    ResponseEntity<ProblemDetail> handleDatabaseDown(Exception ex, HttpServletRequest request) {
        log.warn("Database unavailable for {} {}: {}", request.getMethod(), request.getRequestURI(), ex.getMessage());
        return retryLater(ProblemCodes.DATABASE_UNAVAILABLE, "The database is temporarily unavailable. Please retry.", 5);
    }

    /** Tomcat could not decode a query or form parameter (for example {@code %ZZ}). */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<ProblemDetail> handleUndecodableParameter(InvalidParameterException ex) {
        return problem(HttpStatus.BAD_REQUEST, ProblemCodes.INVALID_INPUT,
                "A parameter could not be decoded: percent-encode it as UTF-8.");
    }

    /** A multipart content type without a usable body; no endpoint takes multipart anyway. */
    @ExceptionHandler(MultipartException.class)
    ResponseEntity<ProblemDetail> handleMultipart(MultipartException ex) {
        return problem(HttpStatus.BAD_REQUEST, ProblemCodes.INVALID_INPUT, "The request body is not valid multipart content.");
    }

    /** A uniqueness race the service did not anticipate: the request lost against another one. */
    @ExceptionHandler(DuplicateKeyException.class)
    ResponseEntity<ProblemDetail> handleDuplicate(DuplicateKeyException ex, HttpServletRequest request) {
        log.warn("Unhandled duplicate key on {} {}: {}", request.getMethod(), request.getRequestURI(), ex.getMessage());
        return problem(HttpStatus.CONFLICT, ProblemCodes.CONFLICT, "The request conflicts with a concurrent change. Please retry.");
    }

    /** Lock waits and deadlocks: nothing was changed, and the same request may well succeed again. */
    @ExceptionHandler({PessimisticLockingFailureException.class, QueryTimeoutException.class})
    ResponseEntity<ProblemDetail> handleContention(DataAccessException ex, HttpServletRequest request) {
        log.warn("Database contention on {} {}: {}", request.getMethod(), request.getRequestURI(), ex.getMessage());
        return retryLater(ProblemCodes.SERVICE_UNAVAILABLE, "The database is busy. Please retry.", 1);
    }

    /**
     * A database error no narrower handler took. The one kind that is not a bug is a write the
     * primary refused for want of disk space ({@link DatabaseFull}): 503 {@code DATABASE_FULL}, so
     * clients retry once an operator has freed space (chaos disk-full). Anything else is unexpected.
     */
    @ExceptionHandler(DataAccessException.class)
    ResponseEntity<ProblemDetail> handleOtherDatabaseError(DataAccessException ex, HttpServletRequest request) {
        if (DatabaseFull.is(ex)) {
            log.warn("Database full for {} {}: {}", request.getMethod(), request.getRequestURI(), ex.getMessage());
            return retryLater(ProblemCodes.DATABASE_FULL,
                    "The database has no space left for this write; nothing was saved. Please retry later.", DATABASE_FULL_RETRY_S);
        }
        return handleUnexpected(ex, request);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> handleUnexpected(Exception ex, HttpServletRequest request) {
        log.error("Unhandled error on {} {}", request.getMethod(), request.getRequestURI(), ex);
        return problem(HttpStatus.INTERNAL_SERVER_ERROR, ProblemCodes.INTERNAL_ERROR, GENERIC_DETAIL);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        // The body limit surfaces here because the converter wraps whatever the stream throws.
        if (RequestBodyTooLargeException.isCauseOf(ex)) {
            ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.CONTENT_TOO_LARGE,
                    "The request body is larger than the allowed maximum.");
            return handleExceptionInternal(ex, body, headers, HttpStatus.CONTENT_TOO_LARGE, request);
        }
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, "The request body is missing or is not valid JSON of the expected shape.");
        return handleExceptionInternal(ex, body, headers, status, request);
    }

    /**
     * A parameter that does not convert: say what it must be, in our words. Spring's own detail
     * echoes the value's {@code toString()}, which for a repeated parameter ({@code ?size=1&size=2})
     * is a Java array's identity ({@code [Ljava.lang.String;@3c18}): internals, found by {@code make fuzz}.
     */
    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException ex, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        String name = ex instanceof MethodArgumentTypeMismatchException argument ? argument.getName() : ex.getPropertyName();
        String what = name == null ? "A parameter" : name;
        String detail;
        if (ex.getValue() instanceof Object[] values && values.length > 1) {
            detail = what + " must be given once.";
        } else {
            detail = what + " must be " + expected(ex.getRequiredType()) + ".";
        }
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        return handleExceptionInternal(ex, body, headers, status, request);
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return "a valid value";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == int.class || type == long.class || type == short.class || type == Integer.class || type == Long.class
                || type == Short.class) {
            return "a whole number";
        }
        return "a valid value";
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        String detail = ex.getBindingResult().getFieldErrors().stream()
                .map(e -> e.getField() + ": " + e.getDefaultMessage())
                .sorted()
                .collect(Collectors.joining("; "));
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail.isEmpty() ? "Invalid request content." : detail);
        return handleExceptionInternal(ex, body, headers, status, request);
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
            HttpStatusCode statusCode, WebRequest request) {
        ProblemDetail problem = problemOf(ex, body, statusCode);
        if (statusCode.is5xxServerError()) {
            log.error("Request failed with {}", statusCode.value(), ex);
            problem.setDetail(GENERIC_DETAIL);
        }
        if (problem.getProperties() == null || !problem.getProperties().containsKey("code")) {
            problem.setProperty("code", ProblemCodes.forStatus(statusCode));
        }
        withRequestId(problem);
        return super.handleExceptionInternal(ex, withMessage(problem), headers, statusCode, request);
    }

    /** Spring's own exceptions carry a ready body (with a safe detail such as "Required parameter 'q' is not present."). */
    private ProblemDetail problemOf(Exception ex, Object body, HttpStatusCode statusCode) {
        ProblemDetail problem;
        if (body instanceof ProblemDetail given) {
            problem = given;
        } else if (ex instanceof ErrorResponse errorResponse) {
            problem = errorResponse.updateAndGetBody(getMessageSource(), LocaleContextHolder.getLocale());
        } else {
            problem = ProblemDetail.forStatus(statusCode);
        }
        if (problem.getDetail() == null) {
            problem.setDetail(problem.getTitle());
        }
        return problem;
    }

    /** 503 with a Retry-After: the failure is the service's, and the same request may succeed later. */
    private static ResponseEntity<ProblemDetail> retryLater(String code, String detail, int seconds) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, detail);
        problem.setProperty("code", code);
        withRequestId(problem);
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, Integer.toString(seconds))
                .body(withMessage(problem));
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String code, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setProperty("code", code);
        withRequestId(problem);
        return ResponseEntity.status(status).body(withMessage(problem));
    }

    /** {@code message} repeats {@code detail} for clients that read that name (architecture §4); set last, once detail is final. */
    private static ProblemDetail withMessage(ProblemDetail problem) {
        problem.setProperty(ProblemBodies.MESSAGE, problem.getDetail());
        return problem;
    }

    /** The request's id (RequestIdFilter) as the last member, so a report names the log lines. */
    private static void withRequestId(ProblemDetail problem) {
        String requestId = RequestIdFilter.current();
        if (requestId != null) {
            problem.setProperty("requestId", requestId);
        }
    }
}
