package dev.hanwiki.post;

import dev.hanwiki.platform.ApiResponse;
import dev.hanwiki.platform.InvalidInputException;
import dev.hanwiki.platform.Paging;
import dev.hanwiki.platform.ResultSlice;
import jakarta.validation.Valid;
import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Posts. The detail carries its version as an {@code ETag}; an edit names the version it
 * started from in its body ({@code version}) or as {@code If-Match}, and must name one (checked
 * after authorization: a non-author is told 403, not 428).
 */
@RestController
@RequestMapping("/api/v1.0/posts")
class PostController {

    /** {@code "3"}, {@code W/"3"} or a bare {@code 3}: one version, nothing else (no {@code *}). */
    private static final Pattern IF_MATCH = Pattern.compile("\\s*(?:W/)?\"?(\\d{1,18})\"?\\s*");

    private final PostService posts;

    PostController(PostService posts) {
        this.posts = posts;
    }

    @GetMapping
    ApiResponse<ResultSlice<PostSummary>> list(@RequestParam(required = false) Long categoryId,
            @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "20") int size) {
        return ApiResponse.ok(posts.list(categoryId, Paging.list(page, size)));
    }

    /** {@code @ResponseStatus} for the description (springdoc reads it; the entity's own status answers). */
    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    ResponseEntity<ApiResponse<PostDetail>> create(@Valid @RequestBody PostRequest request) {
        PostDetail created = posts.create(request.normalized());
        return ResponseEntity.created(URI.create("/api/v1.0/posts/" + created.id()))
                .eTag(etag(created))
                .body(ApiResponse.created(created));
    }

    @PutMapping("/{id}")
    ResponseEntity<ApiResponse<PostDetail>> update(@PathVariable long id, @Valid @RequestBody PostRequest request,
            @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch) {
        PostDetail updated = posts.update(id, request.normalized(), expectedVersion(request.version(), ifMatch));
        return ResponseEntity.ok().eTag(etag(updated)).body(ApiResponse.ok(updated));
    }

    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    ResponseEntity<Void> delete(@PathVariable long id) {
        posts.delete(id);
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/{id}")
    ResponseEntity<ApiResponse<PostDetail>> get(@PathVariable long id) {
        PostDetail post = posts.read(id);
        return ResponseEntity.ok().eTag(etag(post)).body(ApiResponse.ok(post));
    }

    private static String etag(PostDetail post) {
        return "\"" + post.version() + "\"";
    }

    /**
     * The version the edit names, or null if it names none: whether that is allowed (428) is
     * decided by the service after who may edit (401/403) and whether the post exists (404).
     */
    static Long expectedVersion(Long bodyVersion, String ifMatch) {
        Long headerVersion = null;
        if (ifMatch != null) {
            Matcher m = IF_MATCH.matcher(ifMatch);
            if (!m.matches()) {
                throw new InvalidInputException("If-Match must be the version the edit started from, e.g. \"3\".");
            }
            headerVersion = Long.parseLong(m.group(1));
        }
        if (bodyVersion != null && headerVersion != null && !bodyVersion.equals(headerVersion)) {
            throw new InvalidInputException("The version field and If-Match name different versions.");
        }
        return bodyVersion != null ? bodyVersion : headerVersion;
    }
}
