package dev.hanwiki.post;

import dev.hanwiki.platform.ApiResponse;
import jakarta.validation.Valid;
import java.net.URI;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1.0/posts")
class PostController {

    private final PostService posts;

    PostController(PostService posts) {
        this.posts = posts;
    }

    @PostMapping
    ResponseEntity<ApiResponse<PostDetail>> create(@Valid @RequestBody PostRequest request) {
        PostDetail created = posts.create(request);
        return ResponseEntity.created(URI.create("/api/v1.0/posts/" + created.id()))
                .body(ApiResponse.created(created));
    }

    @PutMapping("/{id}")
    ApiResponse<PostDetail> update(@PathVariable long id, @Valid @RequestBody PostRequest request) {
        return ApiResponse.ok(posts.update(id, request));
    }

    @DeleteMapping("/{id}")
    ResponseEntity<Void> delete(@PathVariable long id) {
        posts.delete(id);
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/{id}")
    ApiResponse<PostDetail> get(@PathVariable long id) {
        return ApiResponse.ok(posts.find(id));
    }
}
