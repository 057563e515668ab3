package dev.hanwiki.search;

import dev.hanwiki.platform.ApiResponse;
import dev.hanwiki.platform.ClientAddresses;
import dev.hanwiki.platform.CurrentUser;
import io.swagger.v3.oas.annotations.Parameter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1.0/posts")
class SearchController {

    /** Set when the answer is partial: stopped at its time budget, or without live counts. */
    static final String PARTIAL = "X-Hanwiki-Partial";

    private final SearchService search;
    private final CurrentUser currentUser;
    private final ApplicationEventPublisher events;
    private final SearchLimits limits;
    private final ClientAddresses addresses;

    SearchController(SearchService search, CurrentUser currentUser, ApplicationEventPublisher events, SearchLimits limits,
            ClientAddresses addresses) {
        this.search = search;
        this.currentUser = currentUser;
        this.events = events;
        this.limits = limits;
        this.addresses = addresses;
    }

    @GetMapping("/search")
    ApiResponse<SearchResponse> search(@RequestParam String q,
            @RequestParam(required = false) Long categoryId,
            @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "10") int size,
            @Parameter(description = "true: search the text as typed, never replaced by the keyboard-layout rescue "
                    + "(the \"search instead for dkssud\" link); rewrittenFrom is then always null")
            @RequestParam(defaultValue = "false") boolean exact,
            HttpServletRequest http, HttpServletResponse response) {
        limits.check(q);
        SearchCache.CachedSearch computed = search.search(new SearchRequest(q, categoryId, page, size, exact));
        SearchResponse answer = computed.response();
        if (computed.partial()) {
            response.setHeader(PARTIAL, "true");
        }
        if (page == 0 && !answer.results().content().isEmpty()) {
            events.publishEvent(new SearchAnswered(q, currentUser.find().map(u -> u.id()).orElse(null), addresses.client(http)));
        }
        return ApiResponse.ok(answer);
    }
}
