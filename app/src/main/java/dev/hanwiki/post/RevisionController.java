package dev.hanwiki.post;

import dev.hanwiki.platform.ApiResponse;
import dev.hanwiki.platform.Paging;
import dev.hanwiki.platform.ResultSlice;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Wiki history of a post: {@code /revisions} (newest first, paged), {@code /revisions/{rev}}, {@code /diff?from=&to=}. */
@RestController
@RequestMapping("/api/v1.0/posts/{id}")
class RevisionController {

    private final RevisionService revisions;

    RevisionController(RevisionService revisions) {
        this.revisions = revisions;
    }

    @GetMapping("/revisions")
    ApiResponse<ResultSlice<RevisionSummary>> list(@PathVariable long id,
            @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "20") int size) {
        return ApiResponse.ok(revisions.list(id, Paging.list(page, size)));
    }

    @GetMapping("/revisions/{rev}")
    ApiResponse<Revision> get(@PathVariable long id, @PathVariable long rev) {
        return ApiResponse.ok(revisions.get(id, rev));
    }

    @GetMapping("/diff")
    ApiResponse<RevisionDiff> diff(@PathVariable long id, @RequestParam long from, @RequestParam long to) {
        return ApiResponse.ok(revisions.diff(id, from, to));
    }
}
