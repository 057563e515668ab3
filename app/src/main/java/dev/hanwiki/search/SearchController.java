package dev.hanwiki.search;

import dev.hanwiki.platform.ApiResponse;
import dev.hanwiki.platform.ClientAddresses;
import dev.hanwiki.platform.CurrentUser;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1.0/posts")
class SearchController {

    private final SearchService search;
    private final CurrentUser currentUser;
    private final ApplicationEventPublisher events;
    private final ClientAddresses addresses;

    SearchController(SearchService search, CurrentUser currentUser, ApplicationEventPublisher events,
            ClientAddresses addresses) {
        this.search = search;
        this.currentUser = currentUser;
        this.events = events;
        this.addresses = addresses;
    }

    @GetMapping("/search")
    ApiResponse<SearchResponse> search(@RequestParam String q,
            @RequestParam(required = false) Long categoryId,
            @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "10") int size,
            HttpServletRequest http) {
        SearchResponse answer = search.search(new SearchRequest(q, categoryId, page, size));
        if (page == 0 && !answer.results().content().isEmpty()) {
            events.publishEvent(new SearchAnswered(q, client(http)));
        }
        return ApiResponse.ok(answer);
    }

    /** Who searched: the signed-in user, else the address nginx saw (nodes are only reached through it). */
    private String client(HttpServletRequest http) {
        return currentUser.find().map(u -> "u:" + u.id()).orElseGet(() -> "a:" + addresses.client(http));
    }
}
