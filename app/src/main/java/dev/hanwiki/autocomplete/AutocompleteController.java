package dev.hanwiki.autocomplete;

import dev.hanwiki.platform.ApiResponse;
import java.util.LinkedHashSet;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /posts/autocomplete?prefix=}: the contract's shape ({@code data} is an array of up
 * to 10 title strings, most popular first, a title shown once); {@code &ids=true} returns
 * {@code [{id, title}]} instead, one entry per page. The {@code X-Autocomplete-Source} header
 * says whether Redis or the index fallback answered.
 */
@RestController
@RequestMapping("/api/v1.0/posts")
class AutocompleteController {

    static final String SOURCE_HEADER = "X-Autocomplete-Source";

    private final AutocompleteService autocomplete;

    AutocompleteController(AutocompleteService autocomplete) {
        this.autocomplete = autocomplete;
    }

    @GetMapping("/autocomplete")
    ResponseEntity<ApiResponse<List<?>>> autocomplete(
            @RequestParam String prefix,
            @RequestParam(defaultValue = "false") boolean ids) {
        AutocompleteService.Answer answer = autocomplete.suggest(prefix);
        List<?> data = ids ? answer.suggestions()
                : List.copyOf(answer.suggestions().stream().map(Suggestion::title)
                        .collect(java.util.stream.Collectors.toCollection(LinkedHashSet::new)));
        return ResponseEntity.ok().header(SOURCE_HEADER, answer.source()).body(ApiResponse.ok(data));
    }
}
