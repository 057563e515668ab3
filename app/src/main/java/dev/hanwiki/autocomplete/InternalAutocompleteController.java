package dev.hanwiki.autocomplete;

import dev.hanwiki.platform.ApiResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Operator calls on a node's own port (nginx refuses {@code /internal/}): start a full
 * rebuild of the autocomplete keys from this node's index, and follow its progress.
 */
@RestController
@RequestMapping("/internal/autocomplete")
class InternalAutocompleteController {

    private final AutocompleteRebuild rebuild;
    private final KeyVersions versions;
    private final PopularQueries queries;

    InternalAutocompleteController(AutocompleteRebuild rebuild, KeyVersions versions, PopularQueries queries) {
        this.rebuild = rebuild;
        this.versions = versions;
        this.queries = queries;
    }

    /** Removes a popular-query entry from autocomplete for good (the text as searched). */
    @DeleteMapping("/queries")
    ApiResponse<java.util.Map<String, Object>> removeQuery(@RequestParam String q) {
        String removed = queries.remove(q).orElseThrow(
                () -> new dev.hanwiki.platform.InvalidInputException("q can never be an autocomplete entry."));
        return ApiResponse.ok(java.util.Map.of("removed", removed, "banned", true));
    }

    /** 202 with the progress when started; 409 problem+json saying why when it cannot start now. */
    @PostMapping("/rebuild")
    ResponseEntity<ApiResponse<AutocompleteRebuild.Progress>> start() {
        String refusal = rebuild.begin();
        if (refusal != null) {
            throw new RebuildRefusedException(refusal);
        }
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(new ApiResponse<>(202, rebuild.progress()));
    }

    @GetMapping("/rebuild")
    ApiResponse<AutocompleteRebuild.Progress> progress() {
        return ApiResponse.ok(rebuild.progress());
    }

    @GetMapping("/versions")
    ApiResponse<KeyVersions.State> versions() {
        return ApiResponse.ok(versions.state());
    }
}
